import type { UnwrappedInterrupt } from './types';

const firstString = (...values: unknown[]) => values.find((v): v is string => typeof v === 'string' && v !== '');

/** A direct-mode approval's tool call, and which answers its backend takes. */
export interface ApprovalToolCall {
  toolName?: string;
  args: unknown;
  argsSchema?: unknown;
  /** Approve is offered (`metadata.allowApprove !== false`). */
  approvable: boolean;
  /** Edit arguments is offered (`metadata.allowEdit !== false`). */
  editable: boolean;
  /** Reject and its reason are offered (`metadata.allowReject !== false`). */
  rejectable: boolean;
  /** Dismiss is offered (`metadata.allowDismiss !== false`). */
  dismissible: boolean;
  /** The reason goes with Reject only (`metadata.reasonOnlyOnReject: true`): an approval carries none. */
  reasonOnlyOnReject: boolean;
}

/**
 * The tool call a direct-mode approval is about. The tool is read from `metadata.toolName` (also
 * `tool_name`, `tool`), else the interrupt's own tool; the arguments from `metadata.arguments`
 * (also `args`, `input`); their JSON schema, when the agent sends one, from `metadata.argsSchema`
 * (also `inputSchema`). `metadata.allowApprove` / `allowEdit` / `allowReject` / `allowDismiss`
 * set to `false` hide that action (a LangGraph review request's `config` sets all four).
 */
export function toolCallOf(interrupt: UnwrappedInterrupt): ApprovalToolCall {
  const m = interrupt.metadata;
  return {
    toolName: firstString(m.toolName, m.tool_name, m.tool, interrupt.toolName),
    args: m.arguments ?? m.args ?? m.input,
    argsSchema: m.argsSchema ?? m.inputSchema,
    approvable: m.allowApprove !== false,
    // `allowEdit: false`: the backend cannot run the call with edited arguments (Mastra's native approvals).
    editable: m.allowEdit !== false,
    rejectable: m.allowReject !== false,
    dismissible: m.allowDismiss !== false,
    reasonOnlyOnReject: m.reasonOnlyOnReject === true,
  };
}
