import { InterruptReason } from '../../protocol/constants';
import { isRecord } from '../../wire/guards';
import { LOG } from '../../log';
import type { Report } from '../types';
import { MASTRA_APPROVAL_MARK } from './ids';

type Json = Record<string, unknown>;
type ChunkProcessor = { handleChunk(chunk: unknown): unknown; flush?: () => void } & Json;
type WithChunkProcessor = { createChunkProcessor: (...args: unknown[]) => ChunkProcessor };

/** Marks an agent whose chunk processor is already patched, so clones of clones patch once. */
const PATCHED = Symbol.for('copilotkit-interrupts.mastra-tool-approvals');

/** Why an agent that looks like a MastraAgent cannot show native approvals. */
export const MISSING_BRIDGE_INTERNALS =
  `${LOG} This MastraAgent has no createChunkProcessor (an @ag-ui/mastra version other than 1.1.x?): ` +
  'tools with requireApproval will not show an approval card, and their runs stay suspended in Mastra. ' +
  'Pin @ag-ui/mastra 1.1.2, or use createApprovalTool from copilotkit-interrupts/mastra instead.';

/**
 * The `tool-call-suspended` chunk @ag-ui/mastra understands, for Mastra's `tool-call-approval`
 * chunk (a tool with `requireApproval`, or an agent with `requireToolApproval`): the suspend
 * payload is a direct-mode `aidev:tool_approval` (tool name and arguments), so ToolApprovalCard
 * renders it and its `{approved, reason?}` answer is exactly Mastra's approve / decline resume.
 */
export function approvalChunkAsSuspend(chunk: Json): Json {
  const payload = isRecord(chunk.payload) ? chunk.payload : {};
  const toolName = typeof payload.toolName === 'string' ? payload.toolName : 'a tool';
  const args = isRecord(payload.args) ? payload.args : {};
  return {
    ...chunk,
    type: 'tool-call-suspended',
    payload: {
      toolCallId: payload.toolCallId,
      toolName: payload.toolName,
      args: payload.args,
      resumeSchema: payload.resumeSchema,
      runId: payload.runId ?? chunk.runId,
      suspendPayload: {
        reason: InterruptReason.AIDevToolApproval,
        message: `Allow ${toolName} to run?`,
        // Mastra's approve runs the call with the model's arguments: an edit could not apply, so
        // the card offers none (the middleware also declines an approval that carries edits).
        metadata: { toolName, args, allowEdit: false },
        [MASTRA_APPROVAL_MARK]: true,
      },
    },
  };
}

/**
 * Lets a MastraAgent (@ag-ui/mastra) show Mastra's native tool approvals as interrupts. The bridge
 * drops Mastra's `tool-call-approval` chunk (the browser would see a tool call without a result
 * and the run would sit suspended); this turns each one into the suspend the bridge does
 * forward. It patches the bridge's internal `createChunkProcessor` of this one instance; when
 * that is missing it says so in the console and returns false, instead of leaving approvals
 * silently unanswerable. Agents that are not MastraAgents are left alone (returns false).
 *
 * `withNormalizedInterrupts` applies it to the agent and every clone (the Mastra backend's `prepareAgent`).
 */
export function enableMastraToolApprovals(agent: unknown): boolean {
  if (!isRecord(agent) && typeof agent !== 'object') return false;
  const target = agent as Partial<WithChunkProcessor> & { [PATCHED]?: boolean; isLocalMastraAgent?: unknown };
  if (target[PATCHED]) return true;
  if (typeof target.createChunkProcessor !== 'function') {
    if (looksLikeMastraAgent(target)) console.warn(MISSING_BRIDGE_INTERNALS);
    return false;
  }
  const original = target.createChunkProcessor;
  Object.defineProperty(target, 'createChunkProcessor', {
    configurable: true,
    writable: true,
    value: function createChunkProcessor(this: unknown, ...args: unknown[]): ChunkProcessor {
      const processor = original.apply(this, args);
      if (!isRecord(processor) || typeof processor.handleChunk !== 'function') {
        console.warn(MISSING_BRIDGE_INTERNALS);
        return processor;
      }
      const handleChunk = processor.handleChunk.bind(processor);
      return {
        ...processor,
        handleChunk: (chunk: unknown) => {
          if (!isRecord(chunk)) return handleChunk(chunk);
          if (chunk.type === 'tool-call-approval') return handleChunk(approvalChunkAsSuspend(chunk));
          // A declined call: Mastra already tells the model why; the bridge only logs this chunk.
          if (chunk.type === 'tool-output-denied') return false;
          return handleChunk(chunk);
        },
      };
    },
  });
  Object.defineProperty(target, PATCHED, { value: true, configurable: true });
  return true;
}

/**
 * Whether Mastra's native approvals are enabled on this agent: then a bare bridge id
 * (`<runId>::<toolCallId>`) would resume a suspended tool call, approval included, without the
 * signed id the card got, so the middleware accepts none.
 */
export function hasMastraToolApprovals(agent: unknown): boolean {
  return (
    (typeof agent === 'object' || typeof agent === 'function') && agent !== null && (agent as { [PATCHED]?: boolean })[PATCHED] === true
  );
}

function looksLikeMastraAgent(agent: Json): boolean {
  try {
    return typeof agent.isLocalMastraAgent === 'function' || agent.constructor?.name === 'MastraAgent';
  } catch {
    return false;
  }
}

/**
 * The `{approved, reason?}` Mastra's native approval reads. Only `approved: true` approves:
 * anything else (a missing or non-boolean `approved`, which only a broken or forged client
 * sends) declines, so the tool never runs on a doubtful answer and the run is never left
 * suspended. Mastra's approve runs the call with the model's arguments and cannot take edited
 * ones, so an approval with `editedArgs` declines too, telling the model what the user wanted
 * (it can call the tool again with those).
 */
export function approvalAnswer(payload: unknown, report: Report): Json {
  const answer = isRecord(payload) ? payload : {};
  const reason = typeof answer.reason === 'string' ? { reason: answer.reason } : {};
  if (answer.approved !== true) {
    if (answer.approved !== false) report('A tool approval answer has no true or false `approved`; it declines the call.', payload);
    return { approved: false, ...reason };
  }
  if (!isRecord(answer.editedArgs)) return { approved: true };
  let wanted: string;
  try {
    wanted = JSON.stringify(answer.editedArgs);
  } catch {
    wanted = '(they could not be written out)';
  }
  return {
    approved: false,
    reason: `The user approved this call only with edited arguments, which this tool cannot take, so it did not run. The arguments the user wants: ${wanted}`,
  };
}
