import type { InterruptLabels } from '../src/i18n/labels';
import type { UnwrappedInterrupt } from '../src/unwrap';
import { JsonDetails } from './shared/json-details';

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
      {args !== undefined ? <JsonDetails summary={labels.approvalArguments} value={args} /> : null}
    </>
  );
}
