import type { InterruptLabels } from '../../src/i18n/labels';
import type { UnwrappedInterrupt } from '../../src/unwrap/index';
import { toolCallOf } from './approval-edit-model';
import { DetailsRow } from '../shared/details-row';
import { ApprovalArgsList } from './approval-args-list';

export interface ApprovalDirectDetailsProps {
  interrupt: UnwrappedInterrupt;
  labels: InterruptLabels;
  /** The locale dates in the arguments are shown in. */
  locale: string;
  /** Id of the eyebrow, which names the interactive card. */
  titleId?: string;
  /** Hide the arguments (the editor shows them instead). */
  hideArgs?: boolean;
}

/**
 * Eyebrow, message, the tool and every one of its arguments (shown at once; a long value folds
 * inside itself), as {@link toolCallOf} reads them.
 */
export function ApprovalDirectDetails({ interrupt, labels, locale, titleId, hideArgs }: ApprovalDirectDetailsProps) {
  const { toolName, args } = toolCallOf(interrupt);
  return (
    <>
      <div className="cki-card__header">
        <span className="cki-eyebrow" id={titleId}>
          {labels.approvalEyebrow}
        </span>
      </div>
      {interrupt.message ? <p className="cki-card__title">{interrupt.message}</p> : null}
      {toolName ? (
        <dl className="cki-fields">
          <DetailsRow term={labels.approvalTool}>
            <code>{toolName}</code>
          </DetailsRow>
        </dl>
      ) : null}
      {args !== undefined && !hideArgs ? <ApprovalArgsList args={args} labels={labels} locale={locale} /> : null}
    </>
  );
}
