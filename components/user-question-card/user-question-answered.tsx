import type { UserQuestionAnswerItem, UserQuestionItem, UserQuestionOptionItem } from '../../src/protocol/index';
import type { InterruptLabels } from '../../src/i18n/labels';
import { OTHERS_LABEL } from './user-question-model';

function optionText(option: UserQuestionOptionItem): string {
  if (option.label === OTHERS_LABEL) return option.description ?? option.label;
  return option.description && option.description !== option.label ? `${option.label} — ${option.description}` : option.label;
}

/** Each question's answer options; an answer belongs to the question with its text, else to the one at its position. */
function answersOf(
  questions: readonly UserQuestionItem[],
  answers: readonly (UserQuestionAnswerItem | undefined)[] | undefined,
): UserQuestionOptionItem[][] {
  // The result comes from the host: do not trust it to be an array.
  const given: readonly (UserQuestionAnswerItem | undefined)[] = Array.isArray(answers) ? answers : [];
  return questions.map(({ question }, index) => (given.find((a) => a?.question === question) ?? given[index])?.answer ?? []);
}

/** Every answer in one line of text, for the read-only card's summary ("No answer" when none). */
export function userQuestionAnswerLine(
  questions: readonly UserQuestionItem[],
  answers: readonly (UserQuestionAnswerItem | undefined)[] | undefined,
  labels: InterruptLabels,
): string {
  const line = answersOf(questions, answers)
    .map((options) => options.map((o) => (o.label === OTHERS_LABEL ? (o.description ?? o.label) : o.label)).join(', '))
    .filter(Boolean)
    .join(' · ');
  return line || labels.questionNoAnswer;
}

/** Every question with its answer(s), as read-only text: the read-only card's details. */
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
  const all = answersOf(questions, answers);
  return (
    <ol className="cki-answers">
      {questions.map(({ question }, index) => (
        <li className="cki-answers__item" key={index}>
          <p className="cki-answers__question">{question}</p>
          {all[index].length === 0 ? (
            <p className="cki-answers__none">{labels.questionNoAnswer}</p>
          ) : (
            <ul className="cki-answers__list">
              {all[index].map((option, i) => (
                <li key={i}>{optionText(option)}</li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ol>
  );
}
