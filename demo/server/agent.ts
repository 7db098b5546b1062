import { MastraAgent } from '@ag-ui/mastra';
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import type { MastraCompositeStore } from '@mastra/core/storage';
import { LibSQLStore } from '@mastra/libsql';
import { createApprovalTool, createTimePickerTool, createUserQuestionTool, type TimePickerToolOptions } from '../../src/mastra';
import { withNormalizedInterrupts } from '../../src/runtime';
import type { ApprovalStore } from './approvals';
import { createScriptedModel } from './scripted-model';

export const DEMO_AGENT_ID = 'assistant';

/** How long the quick poll ("Run a quick poll") accepts an answer. */
export const QUICK_POLL_MS = 4_000;

export const DEMO_INSTRUCTIONS = `You are a helpful assistant in a demo of in-chat human-in-the-loop cards.
- Whenever the user asks to book or schedule a meeting or a call, call schedule_meeting with a short topic and, when known, the attendee. The picker decides; do not ask for confirmation yourself.
- Whenever the user asks for an approval (a deployment, a payment, access), call request_approval with the action.
- Whenever the user tells you to deploy, call deploy with the action and args {version, environment, replicas}; the user approves or edits the call.
- Whenever the user asks you to ask them questions, call ask_user_questions with two or three questions.
- Whenever the user asks for a quick poll, call quick_poll with one question.
- After a tool returns, confirm in one short sentence that quotes its result (the time that was scheduled, or that nothing was scheduled).
- Otherwise answer briefly in plain text.`;

/** What the demo's deploy "does" (shared by the Mastra and the LangGraph agent). */
export const deployResultText = (args: Record<string, unknown>) =>
  `Deployed ${String(args.version)} to ${String(args.environment)} with ${String(args.replicas)} replicas.`;

/** The direct-mode deploy's arguments, as a flat JSON schema: the card's Edit form comes from it. */
export const DEPLOY_ARGS_SCHEMA = {
  type: 'object',
  properties: {
    version: { type: 'string', title: 'Version' },
    environment: { type: 'string', title: 'Environment', enum: ['staging', 'production'] },
    replicas: { type: 'integer', title: 'Replicas' },
  },
  required: ['version', 'environment', 'replicas'],
};

export interface DemoModelChoice {
  /** `scripted` (default) or `openai` (needs OPENAI_API_KEY). */
  kind: 'scripted' | 'openai';
  model: unknown;
}

/**
 * The model behind the demo agent: the deterministic scripted model, or with `DEMO_MODEL=openai`
 * and `OPENAI_API_KEY` set, OpenAI's `gpt-4o-mini` (`OPENAI_MODEL` overrides).
 */
export async function chooseDemoModel(env: NodeJS.ProcessEnv = process.env): Promise<DemoModelChoice> {
  if (env.DEMO_MODEL === 'openai') {
    if (!env.OPENAI_API_KEY) throw new Error('DEMO_MODEL=openai needs OPENAI_API_KEY.');
    const { createOpenAI } = await import('@ai-sdk/openai');
    return { kind: 'openai', model: createOpenAI({ apiKey: env.OPENAI_API_KEY })(env.OPENAI_MODEL ?? 'gpt-4o-mini') };
  }
  return { kind: 'scripted', model: createScriptedModel() };
}

/**
 * A real Mastra `Agent` with the interrupt tools, in a `Mastra` instance with `storage` (resuming a
 * suspended run needs storage; the suspended run waits there). Default: in-memory LibSQL.
 */
export function createDemoMastra({
  approvals,
  model = createScriptedModel(),
  timeSlots,
  storage,
}: {
  approvals: ApprovalStore;
  model?: unknown;
  /** The time picker's candidate slots. Default: the four relative slots. */
  timeSlots?: TimePickerToolOptions['slots'];
  /** Mastra's storage. Default: LibSQL `:memory:` (nothing survives the process). */
  storage?: MastraCompositeStore;
}) {
  const assistant = new Agent({
    id: DEMO_AGENT_ID,
    name: DEMO_AGENT_ID,
    instructions: DEMO_INSTRUCTIONS,
    model: model as ConstructorParameters<typeof Agent>[0]['model'],
    tools: {
      schedule_meeting: createTimePickerTool(timeSlots ? { slots: timeSlots } : {}),
      request_approval: createApprovalTool({
        createTicket: (input) => approvals.open(input.action),
        getTicket: (sn) => approvals.get(sn),
      }),
      ask_user_questions: createUserQuestionTool(),
      // A question that must be answered within seconds: shows "Expired", and the agent gets `cancelled`.
      quick_poll: createUserQuestionTool({
        id: 'quick_poll',
        description: 'Ask one quick question that must be answered within seconds.',
        expiresInMs: QUICK_POLL_MS,
      }),
      deploy: createApprovalTool({
        id: 'deploy',
        description: 'Deploy a version of the app to an environment, once the user approves (they may edit the arguments).',
        argsSchema: DEPLOY_ARGS_SCHEMA,
        run: deployResultText,
      }),
    },
  });
  return new Mastra({
    agents: { [DEMO_AGENT_ID]: assistant },
    storage: storage ?? new LibSQLStore({ id: 'copilotkit-interrupts-demo', url: ':memory:' }),
    logger: false,
  });
}

/**
 * The AG-UI agents CopilotRuntime serves: the Mastra agent through @ag-ui/mastra, wrapped in
 * `normalizeInterrupts()` (kept on every per-request clone). Registered as `default`, the agent
 * `CopilotChat` talks to when given no `agentId`.
 */
export function createDemoAgents(mastra: Mastra) {
  const agents = MastraAgent.getLocalAgents({ mastra, resourceId: 'copilotkit-interrupts-demo' });
  const agent = agents[DEMO_AGENT_ID];
  if (!agent) throw new Error(`The demo Mastra instance has no agent "${DEMO_AGENT_ID}".`);
  return { default: withNormalizedInterrupts(agent) };
}
