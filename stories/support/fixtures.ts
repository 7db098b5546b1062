import { APPROVAL_STATUS, InterruptReason } from '../../src/protocol';
import { fromLangGraphReview } from '../../src/backends/langgraph/review';

/** A fixed clock: Wednesday 22 April 2026, 08:00 local time. Fallback slots and countdowns derive from it. */
export const FIXED_NOW = new Date(2026, 3, 22, 8, 0, 0).getTime();
export const fixedClock = () => FIXED_NOW;
/** A deadline the fixed clock has passed / has not reached. */
export const PAST = new Date(FIXED_NOW - 60_000).toISOString();
export const FUTURE = new Date(FIXED_NOW + 10 * 60_000).toISOString();

export const LONG_TEXT =
  'Quarterly architecture review of the payment-routing service, including the migration of every legacy settlement job, '.repeat(4).trim();
export const LONG_WORD = 'Supercalifragilisticexpialidocious-'.repeat(8);

/** How @ag-ui/mastra delivers a `schedule_meeting` suspend (as measured on its wire; test/fixtures/interrupts.ts). */
export function mastraTimePicker(suspendPayload: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    id: 'run-1::call-1',
    reason: 'mastra:tool_suspend',
    toolCallId: 'call-1',
    ...extra,
    metadata: {
      mastra: { type: 'mastra_suspend', toolName: 'schedule_meeting', suspendPayload, args: {}, runId: 'run-1' },
    },
  };
}

export const SLOTS = [
  { label: 'Tomorrow 10:00 AM', iso: '2026-04-23T10:00:00.000Z' },
  { label: 'Tomorrow 2:00 PM', iso: '2026-04-23T14:00:00.000Z' },
  { label: 'Monday 9:00 AM', iso: '2026-04-27T09:00:00.000Z' },
  { label: 'Monday 3:30 PM', iso: '2026-04-27T15:30:00.000Z' },
];

export const timePickerInterrupt = mastraTimePicker({ topic: 'Intro call with sales', attendee: 'Alice', slots: SLOTS });

export const ticket = {
  approvers: ['Zhang San', 'Li Si'],
  sn: 'REV-2026-04-24-001',
  status: APPROVAL_STATUS.PENDING,
  submit_time: '2026-04-24 14:30:15',
  title: 'Algorithm design review',
  url: 'https://example.com/review-tickets/REV-2026-04-24-001',
};

export function approvalInterrupt(overrides: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return {
    id: 'interrupt_ai_dev_tool_approval',
    reason: InterruptReason.AIDevToolApproval,
    toolCallId: 'tool_call_review_ticket',
    message: 'The design review ticket needs your attention',
    ...extra,
    metadata: { ticket: { ...ticket, ...overrides } },
  };
}

export const directApprovalInterrupt = {
  id: 'interrupt_direct',
  reason: InterruptReason.AIDevToolApproval,
  toolCallId: 'call-delete',
  message: 'The agent wants to delete 3 files.',
  metadata: { toolName: 'delete_files', arguments: { paths: ['a.txt', 'b.txt', 'c.txt'], force: true } },
};

/** An agent-inbox review request's `config`: which answers the LangGraph graph takes. */
export type ReviewConfig = { allow_accept: boolean; allow_edit: boolean; allow_respond: boolean; allow_ignore: boolean };

/** A LangGraph review request (agent-inbox `HumanInterrupt`) as normalizeInterrupts() hands it to the card. */
export function langGraphReviewInterrupt(config: ReviewConfig) {
  const value = [
    {
      action_request: { action: 'send_email', args: { to: 'ops@example.com', subject: 'Deploy done' } },
      config,
      description: 'Send the deploy email to the ops list?',
    },
  ];
  const read = fromLangGraphReview('1e0f3c9a7e5b4d2c8a6f0b9d7c5a3e1f', value);
  if (!('interrupt' in read)) throw new Error(read.problem);
  return read.interrupt;
}

/** A direct approval whose arguments come with a flat JSON schema: the Edit form is generated from it. */
export const deployApprovalInterrupt = {
  id: 'interrupt_deploy',
  reason: InterruptReason.AIDevToolApproval,
  toolCallId: 'call-deploy',
  message: 'The agent wants to deploy a service.',
  metadata: {
    toolName: 'deploy_service',
    arguments: { service: 'api', replicas: 2, dryRun: false },
    argsSchema: {
      type: 'object',
      properties: {
        service: { type: 'string', title: 'Service' },
        replicas: { type: 'integer', title: 'Replicas' },
        dryRun: { type: 'boolean', title: 'Dry run' },
      },
      required: ['service', 'replicas'],
    },
  },
};

export const questions = [
  {
    header: 'Implementation',
    multiSelect: false,
    question: 'Which sort implementation do you want?',
    options: [
      { label: 'basic', description: 'Plain bubble sort' },
      { label: 'optimized', description: 'Bubble sort with early exit' },
    ],
  },
  {
    header: 'Languages',
    multiSelect: true,
    question: 'Which languages should it support?',
    options: [
      { label: 'Java', description: 'Java' },
      { label: 'Go', description: 'Go' },
      { label: 'Python', description: 'Python' },
    ],
  },
  { header: 'Notes', question: 'Anything else we should know?' },
];

export function questionInterrupt(qs: unknown = questions, extra: Record<string, unknown> = {}) {
  return {
    id: 'interrupt_question_1',
    reason: InterruptReason.UserQuestion,
    toolCallId: 'tool_call_question_1',
    message: 'A few questions before I start',
    ...extra,
    metadata: { questions: qs },
  };
}
