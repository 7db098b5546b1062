import type { ReactNode } from 'react';
import type { InterruptLabels } from '../src/i18n/labels';
import type { UnwrappedInterrupt } from '../src/unwrap';
import { DetailsRow } from './shared/details-row';
import { JsonDetails } from './shared/json-details';

const firstString = (...values: unknown[]) => values.find((v): v is string => typeof v === 'string' && v !== '');

export interface ApprovalDirectDetailsProps {
  interrupt: UnwrappedInterrupt;
  labels: InterruptLabels;
  /** Id of the eyebrow, which names the interactive card. */
  titleId?: string;
  /** The outcome, once there is one; shown next to the eyebrow. */
  badge?: ReactNode;
}

/**
 * Eyebrow, message, the tool and its arguments (formatted, collapsible: native, keyboard-operable).
 * The tool is read from `metadata.toolName` (also `tool_name`, `tool`), else the interrupt's own
 * tool; the arguments from `metadata.arguments` (also `args`, `input`).
 */
export function ApprovalDirectDetails({ interrupt, labels, titleId, badge }: ApprovalDirectDetailsProps) {
  const m = interrupt.metadata;
  const toolName = firstString(m.toolName, m.tool_name, m.tool, interrupt.toolName);
  const args = m.arguments ?? m.args ?? m.input;
  return (
    <>
      <div className="cki-card__header">
        <span className="cki-eyebrow" id={titleId}>
          {labels.approvalEyebrow}
        </span>
        {badge}
      </div>
      {interrupt.message ? <p className="cki-card__title">{interrupt.message}</p> : null}
      {toolName ? (
        <dl className="cki-fields">
          <DetailsRow term={labels.approvalTool}>
            <code>{toolName}</code>
          </DetailsRow>
        </dl>
      ) : null}
      {args !== undefined ? <JsonDetails summary={labels.approvalArguments} value={args} /> : null}
    </>
  );
}
