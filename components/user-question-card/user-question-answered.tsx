import type { UserQuestionAnswerItem, UserQuestionItem, UserQuestionOptionItem } from '../../src/protocol/index';
import type { InterruptLabels } from '../../src/i18n/labels';
import { readableText } from '../../src/i18n/date-time';
import { OTHERS_LABEL } from './user-question-model';

/** An option as the user picked or typed it; a date (from a custom date question) readable. */
function optionText(option: UserQuestionOptionItem, locale?: string): string {
  if (option.label === OTHERS_LABEL) return readableText(option.description ?? option.label, locale);
  const label = readableText(option.label, locale);
  return option.description && option.description !== option.label ? `${label} — ${readableText(option.description, locale)}` : label;
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

/**
 * Every answer as text for the read-only card's summary ("No answer" when none): the options of
 * one question joined by commas, the questions by " · ".
 */
export function userQuestionAnswerLine(
  questions: readonly UserQuestionItem[],
  answers: readonly (UserQuestionAnswerItem | undefined)[] | undefined,
  labels: InterruptLabels,
  locale?: string,
): string {
  const line = answersOf(questions, answers)
    .map((options) => options.map((o) => readableText(o.label === OTHERS_LABEL ? (o.description ?? o.label) : o.label, locale)).join(', '))
    .filter(Boolean)
    .join(' · ');
  return line || labels.questionNoAnswer;
}

/** Every question with its answer(s), as read-only text: the read-only card's details. */
export function UserQuestionAnsweredList({
  questions,
  answers,
  labels,
  locale,
}: {
  questions: readonly UserQuestionItem[];
  /** The answers given; none when the questions were skipped. */
  answers: readonly (UserQuestionAnswerItem | undefined)[] | undefined;
  labels: InterruptLabels;
  locale?: string;
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
                <li key={i}>{optionText(option, locale)}</li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ol>
  );
}
