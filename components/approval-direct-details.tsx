import type { InterruptLabels } from '../src/i18n/labels';
import type { UnwrappedInterrupt } from '../src/unwrap';
import { formatJson } from './shared/format-json';

const firstString = (...values: unknown[]) => values.find((v): v is string => typeof v === 'string' && v !== '');

/**
 * The tool a direct-mode approval is about. Read from `metadata.toolName` (also `tool_name`,
 * `tool`), else the interrupt's own tool; arguments from `metadata.arguments` (also `args`, `input`).
 */
export function readDirectApproval(interrupt: UnwrappedInterrupt) {
  const m = interrupt.metadata;
  return {
    toolName: firstString(m.toolName, m.tool_name, m.tool, interrupt.toolName),
    args: m.arguments ?? m.args ?? m.input,
  };
}

/** Message, tool name and the arguments, formatted and collapsible (native, keyboard-operable). */
export function ApprovalDirectDetails({ interrupt, labels }: { interrupt: UnwrappedInterrupt; labels: InterruptLabels }) {
  const { toolName, args } = readDirectApproval(interrupt);
  return (
    <>
      {toolName ? (
        <dl className="cki-fields">
          <div className="cki-fields__row">
            <dt>{labels.approvalTool}</dt>
            <dd>
              <code>{toolName}</code>
            </dd>
          </div>
        </dl>
      ) : null}
      {args !== undefined ? (
        <details className="cki-details">
          <summary>{labels.approvalArguments}</summary>
          {/* Focusable because a long value scrolls, and a scroll area must be reachable by keyboard. */}
          <pre className="cki-code" tabIndex={0}>
            <code>{formatJson(args)}</code>
          </pre>
        </details>
      ) : null}
    </>
  );
}
