import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import type { InterruptLabels } from '../../src/i18n/labels';
import { cx } from '../shared/class-names';
import { optionKey, OTHERS_LABEL, type ChoiceQuestion, type QuestionDraft } from './user-question-model';

export interface UserQuestionOptionsProps {
  question: ChoiceQuestion;
  draft: QuestionDraft;
  labels: InterruptLabels;
  labelledBy: string;
  /** Called with the picked option's key (see `optionKey`), or `others`. */
  onPick: (key: string) => void;
  onOthersText: (text: string) => void;
  /** Enter in the Others field: the user is done with this question. */
  onDone: () => void;
}

/** How far each arrow key moves focus through the options (wrapping around). */
const ARROW_STEPS: Readonly<Record<string, number>> = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 };

/**
 * The options of a choice question, plus "Others". Single choice is a radio group, multiple
 * choice a group of checkboxes; either way one tab stop, arrow keys move between options and
 * Space / Enter pick (moving focus never picks, because a pick may advance to the next question).
 */
export function UserQuestionOptions({ question, draft, labels, labelledBy, onPick, onOthersText, onDone }: UserQuestionOptionsProps) {
  const multi = question.multiSelect === true;
  const othersInputId = useId();
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const options = [
    ...question.options.map((option, i) => ({ ...option, key: optionKey(i) })).filter((o) => o.label !== OTHERS_LABEL),
    { label: OTHERS_LABEL, description: '', key: OTHERS_LABEL },
  ];
  // One tab stop: the first checked option, else the first option.
  const tabStop = Math.max(
    0,
    options.findIndex((o) => draft.selected.includes(o.key)),
  );
  const othersPicked = draft.selected.includes(OTHERS_LABEL);
  // Focus follows the user's intent: they just picked Others to type something. Moved by an
  // effect on that choice, not `autoFocus`, so nothing grabs focus when the card first appears.
  const othersInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (othersPicked) othersInput.current?.focus();
  }, [othersPicked]);

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const count = options.length;
    let next: number | undefined;
    if (Object.hasOwn(ARROW_STEPS, event.key)) next = (index + ARROW_STEPS[event.key] + count) % count;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = count - 1;
    if (next === undefined) return;
    event.preventDefault();
    refs.current[next]?.focus();
  }

  return (
    <div className="cki-options" role={multi ? 'group' : 'radiogroup'} aria-labelledby={labelledBy}>
      {options.map((option, index) => {
        const checked = draft.selected.includes(option.key);
        return (
          // The buttons hold no state of their own: their position is key enough.
          <button
            key={index}
            ref={(el) => {
              refs.current[index] = el;
            }}
            type="button"
            role={multi ? 'checkbox' : 'radio'}
            aria-checked={checked}
            tabIndex={index === tabStop ? 0 : -1}
            className={cx('cki-option', checked && 'cki-option--checked')}
            data-testid="user-question-option"
            onKeyDown={(e) => onKeyDown(e, index)}
            onClick={() => onPick(option.key)}
          >
            <span className="cki-option__mark" aria-hidden="true" />
            <span className="cki-option__text">
              <span className="cki-option__label">{option.label === OTHERS_LABEL ? labels.questionOthers : option.label}</span>
              {option.description && option.description !== option.label ? (
                <span className="cki-option__description">{option.description}</span>
              ) : null}
            </span>
          </button>
        );
      })}
      {othersPicked ? (
        <label className="cki-field cki-field--others" htmlFor={othersInputId}>
          <span className="cki-sr-only">{labels.questionOthers}</span>
          <input
            id={othersInputId}
            className="cki-input"
            data-testid="user-question-others-input"
            placeholder={labels.questionOthersPlaceholder}
            value={draft.othersText}
            ref={othersInput}
            onChange={(e) => onOthersText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
                e.preventDefault();
                onDone();
              }
            }}
          />
        </label>
      ) : null}
    </div>
  );
}
