import { expect } from 'vitest';
import { ToolApprovalCard } from '../../components/tool-approval-card/tool-approval-card';
import { normalizeInterrupts } from '../../src/runtime';
import { ScriptedAgent, interruptOutcome, runFinished, runStarted, textMessage } from '../helpers/scripted-agent';
import { renderChat } from './harness';

/**
 * The chat with the built-in approval card, and an agent standing where @ag-ui/langgraph would
 * (with emitInterruptOutcome): its first run stops with the LangGraph interrupt `langGraphId`
 * whose value is `value`, behind the real normalizeInterrupts(); later runs reply "Understood.".
 */
export function chatWithLangGraphValue(langGraphId: string, value: unknown): ScriptedAgent {
  const agent = new ScriptedAgent((input, n) =>
    n === 0
      ? [
          runStarted(input),
          runFinished(input, interruptOutcome({ id: langGraphId, reason: 'langgraph:interrupt', metadata: { langgraph: { raw: value } } })),
        ]
      : [runStarted(input), ...textMessage(`reply-${n}`, 'Understood.'), runFinished(input)],
  );
  agent.use(normalizeInterrupts());
  renderChat({ agent, config: { resolveDelayMs: 0, defaults: { 'aidev:tool_approval': ToolApprovalCard } } });
  return agent;
}

/**
 * What the graph resumes with: the one `resume` entry `@ag-ui/langgraph` turns into
 * `Command({ resume })`, whose payload is LangGraph's resume map keyed by its own interrupt id (and
 * never the deprecated `forwardedProps.command`).
 */
export function graphResume(agent: ScriptedAgent, langGraphId: string): unknown {
  const run = agent.runs[1] as { resume?: Array<{ payload?: Record<string, unknown> }>; forwardedProps?: { command?: unknown } };
  expect(run.forwardedProps?.command).toBeUndefined();
  expect(run.resume).toHaveLength(1);
  return run.resume?.[0]?.payload?.[langGraphId];
}
