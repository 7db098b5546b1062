import { MockLanguageModelV3, convertArrayToReadableStream } from 'ai/test';

type CallOptions = Parameters<MockLanguageModelV3['doStream']>[0];
type StreamPart = Parameters<typeof convertArrayToReadableStream<unknown>>[0][number];

/** What the scripted model decided to do with a prompt. */
export type ScriptedTurn = { kind: 'text'; text: string } | { kind: 'tool'; toolName: string; input: Record<string, unknown> };

/** The questions the demo's question scenario asks (single choice, multiple choice, free text). */
export const DEMO_QUESTIONS = [
  {
    header: 'Project',
    question: 'What kind of project is this?',
    multiSelect: false,
    options: [
      { label: 'Web app', description: 'A browser front end with an API' },
      { label: 'Mobile app', description: 'iOS and Android' },
      { label: 'Data pipeline', description: 'Batch or streaming jobs' },
    ],
  },
  {
    header: 'Regions',
    question: 'Which regions should it run in?',
    multiSelect: true,
    options: [
      { label: 'EU', description: 'Frankfurt and Dublin' },
      { label: 'US', description: 'Virginia and Oregon' },
      { label: 'Asia', description: 'Singapore and Tokyo' },
    ],
  },
  { header: 'Deadline', question: 'When does it need to ship?' },
];

export const GREETING =
  'Hi! I\'m the copilotkit-interrupts demo agent. I can book a call (try "Book a call with sales"), ' +
  'request an approval ("Request approval to deploy v2 to production") or ask you a few questions ' +
  '("Ask me a few questions about my project").';

/** A direct deploy ("Deploy v2 to production"): the user approves the tool call, and may edit it. */
const DEPLOY = /^\s*deploy\b/i;
const BOOKING = /\b(book|schedule|reschedule)\b|\bmeeting\b|\b1:1\b/i;
const APPROVAL = /\bapprov|\bsign[- ]?off\b|\bpermission\b/i;
const QUESTIONS = /\bquestions?\b|\bask me\b|\bsurvey\b|\bquestionnaire\b/i;
const QUICK_POLL = /\bquick poll\b/i;

/** The one question of the quick poll, which expires after `QUICK_POLL_MS`. */
export const QUICK_POLL_QUESTION = { header: 'Poll', question: 'Coffee or tea?', options: [{ label: 'Coffee' }, { label: 'Tea' }] };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part) => isRecord(part) && part.type === 'text' && typeof part.text === 'string')
    .map((part) => (part as { text: string }).text)
    .join('');
}

function toolResultText(output: unknown): string {
  if (!isRecord(output)) return typeof output === 'string' ? output : JSON.stringify(output);
  const value = output.value;
  if (typeof value === 'string') {
    // Results that went through JSON once more (a JSON-encoded string) read as the string.
    try {
      const parsed = JSON.parse(value);
      if (typeof parsed === 'string') return parsed;
    } catch {
      // plain text
    }
    return value;
  }
  return JSON.stringify(value);
}

const tidy = (text: string) => text.trim().replace(/[.!?\s]+$/, '');
const capitalize = (text: string) => (text ? text[0].toUpperCase() + text.slice(1) : text);

/** The meeting topic from a booking request: what follows "book"/"schedule", without the article. */
export function meetingTopic(message: string): string {
  const match = /\b(?:book|schedule|reschedule)\b\s+(.*)$/i.exec(message.replace(/\buse\s+schedule_meeting\s+to\s+/i, ''));
  const rest = tidy(match ? match[1] : message).replace(/^(?:an?|the|me)\s+/i, '');
  return capitalize(rest) || 'A call';
}

/** The attendee from "with Alice" (a capitalised name), if any. */
export function meetingAttendee(message: string): string | undefined {
  const match = /\bwith\s+([A-Z][\p{L}'-]+)/u.exec(message);
  return match ? match[1] : undefined;
}

/** The arguments of a direct deploy, from "Deploy v2 to staging" (version, environment; two replicas). */
export function deployArgs(message: string): { version: string; environment: string; replicas: number } {
  const version = /\b(v\d+(?:\.\d+)*)\b/i.exec(message)?.[1] ?? 'v2';
  const environment = /\bto\s+([\p{L}-]+)/u.exec(message)?.[1]?.toLowerCase() ?? 'production';
  return { version, environment, replicas: 2 };
}

/** What needs approval, from "Request approval to deploy v2" → "Deploy v2". */
export function approvalAction(message: string): string {
  const match = /\b(?:approval|sign[- ]?off|permission)\s+(?:to|for)\s+(.*)$/i.exec(message);
  return capitalize(tidy(match ? match[1] : message)) || 'The requested action';
}

/**
 * The scripted model's decision, from the prompt alone (never from a call counter):
 * a tool result after the last user message → a short text quoting it; a question request → the
 * question tool; "Deploy …" → the direct-mode `deploy` approval; an approval request → the ticket
 * approval tool; a booking request → `schedule_meeting`;
 * anything else → plain text.
 */
export function decide(prompt: CallOptions['prompt']): ScriptedTurn {
  const messages = prompt as unknown as { role: string; content: unknown }[];
  let lastUser = -1;
  messages.forEach((m, i) => {
    if (m.role === 'user') lastUser = i;
  });
  const results: string[] = [];
  for (const message of messages.slice(lastUser + 1)) {
    if (message.role !== 'tool' || !Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (isRecord(part) && part.type === 'tool-result') results.push(toolResultText(part.output));
    }
  }
  if (results.length > 0) return { kind: 'text', text: results.join(' ') };

  const said = lastUser >= 0 ? textOf(messages[lastUser].content) : '';
  if (QUICK_POLL.test(said)) {
    return {
      kind: 'tool',
      toolName: 'quick_poll',
      input: { message: 'Quick, answer within a few seconds.', questions: [QUICK_POLL_QUESTION] },
    };
  }
  if (QUESTIONS.test(said)) {
    return {
      kind: 'tool',
      toolName: 'ask_user_questions',
      input: { message: 'A few questions about your project.', questions: DEMO_QUESTIONS },
    };
  }
  if (DEPLOY.test(said) && !APPROVAL.test(said)) {
    return { kind: 'tool', toolName: 'deploy', input: { action: capitalize(tidy(said)), toolName: 'deploy', args: deployArgs(said) } };
  }
  if (APPROVAL.test(said)) {
    return { kind: 'tool', toolName: 'request_approval', input: { action: approvalAction(said) } };
  }
  if (BOOKING.test(said)) {
    const attendee = meetingAttendee(said);
    return { kind: 'tool', toolName: 'schedule_meeting', input: { topic: meetingTopic(said), ...(attendee ? { attendee } : {}) } };
  }
  if (/weather/i.test(said)) {
    return {
      kind: 'text',
      text: "I can't look up the weather in this demo. " + GREETING.replace(/^Hi! I'm the copilotkit-interrupts demo agent\. /, ''),
    };
  }
  return { kind: 'text', text: GREETING };
}

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

let counter = 0;
const nextId = (prefix: string) => `${prefix}_${Date.now().toString(36)}_${(counter++).toString(36)}`;

function streamParts(turn: ScriptedTurn): StreamPart[] {
  const head: StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', id: nextId('resp'), modelId: 'scripted', timestamp: new Date() },
  ];
  if (turn.kind === 'tool') {
    const id = nextId('call');
    const input = JSON.stringify(turn.input);
    return [
      ...head,
      { type: 'tool-input-start', id, toolName: turn.toolName },
      { type: 'tool-input-delta', id, delta: input },
      { type: 'tool-input-end', id },
      { type: 'tool-call', toolCallId: id, toolName: turn.toolName, input },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: usage(10, 10) },
    ];
  }
  const id = nextId('text');
  const words = turn.text.split(/(?<= )/);
  return [
    ...head,
    { type: 'text-start', id },
    ...words.map((delta) => ({ type: 'text-delta', id, delta }) as StreamPart),
    { type: 'text-end', id },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(10, words.length) },
  ];
}

/**
 * A deterministic language model for the demo and the tests: `MockLanguageModelV3` from `ai/test`
 * whose answers are decided by {@link decide} (or, for a test, by its own `decideTurn`). No network, no key.
 */
export function createScriptedModel(decideTurn: (prompt: CallOptions['prompt']) => ScriptedTurn = decide): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider: 'copilotkit-interrupts-demo',
    modelId: 'scripted',
    doStream: async (options) => ({
      stream: convertArrayToReadableStream(streamParts(decideTurn(options.prompt)) as never[]),
    }),
    doGenerate: async (options) => {
      const turn = decideTurn(options.prompt);
      const content =
        turn.kind === 'tool'
          ? [{ type: 'tool-call' as const, toolCallId: nextId('call'), toolName: turn.toolName, input: JSON.stringify(turn.input) }]
          : [{ type: 'text' as const, text: turn.text }];
      return {
        content,
        finishReason: { unified: turn.kind === 'tool' ? ('tool-calls' as const) : ('stop' as const), raw: undefined },
        usage: usage(10, 10),
        warnings: [],
      };
    },
  });
}
