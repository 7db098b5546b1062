import type { UserQuestionAnswerItem, UserQuestionItem, UserQuestionOptionItem } from '../src/protocol';
import type { InterruptLabels } from '../src/i18n/labels';
import { OTHERS_LABEL } from './user-question-model';

function optionText(option: UserQuestionOptionItem): string {
  if (option.label === OTHERS_LABEL) return option.description ?? option.label;
  return option.description && option.description !== option.label ? `${option.label} — ${option.description}` : option.label;
}

/**
 * Every question with its answer(s), as read-only text. An answer belongs to the question with its
 * text, else to the one at its position.
 */
export function UserQuestionAnsweredList({
  questions,
  answers,
  labels,
}: {
  questions: readonly UserQuestionItem[];
  /** The answers given; none when the questions were skipped. */
  answers: readonly (UserQuestionAnswerItem | undefined)[] | undefined;
  labels: InterruptLabels;
}) {
  // The result comes from the host: do not trust it to be an array.
  const given: readonly (UserQuestionAnswerItem | undefined)[] = Array.isArray(answers) ? answers : [];
  return (
    <ol className="cki-answers">
      {questions.map(({ question }, index) => {
        const answer = (given.find((a) => a?.question === question) ?? given[index])?.answer ?? [];
        return (
          <li className="cki-answers__item" key={index}>
            <p className="cki-answers__question">{question}</p>
            {answer.length === 0 ? (
              <p className="cki-answers__none">{labels.questionNoAnswer}</p>
            ) : (
              <ul className="cki-answers__list">
                {answer.map((option, i) => (
                  <li key={i}>{optionText(option)}</li>
                ))}
              </ul>
            )}
          </li>
        );
      })}
    </ol>
  );
}
