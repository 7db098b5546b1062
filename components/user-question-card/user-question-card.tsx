import { useEffect, useId, useRef, useState, type ReactNode, memo } from 'react';
import type { Clock } from '../../hooks/use-countdown';
import type { InterruptRendererProps } from '../../hooks/renderer-props';
import type { UserQuestionAnswerItem, UserQuestionItem } from '../../src/protocol/index';
import { formatLabel, type InterruptLabels } from '../../src/i18n/labels';
import { isUserQuestionInterrupt } from '../../src/unwrap/index';
import { malformedPayloadCard } from '../fallback-interrupt-card/fallback-interrupt-card';
import { Badge } from '../shared/badge';
import { CardShell, type ReadOnlyView } from '../shared/card-shell';
import { CountdownText } from '../shared/countdown-text';
import { useCardBasics } from '../shared/use-card-basics';
import { UserQuestionAnsweredList, userQuestionAnswerLine } from './user-question-answered';
import { UserQuestionOptions } from './user-question-options';
import { answerFromDraft, EMPTY_DRAFT, isChoiceQuestion, OTHERS_LABEL, toggleOption, type QuestionDraft } from './user-question-model';

/** What the card resolves with: one answer per question, in question order. */
export interface UserQuestionResult {
  answers: UserQuestionAnswerItem[];
}

/** What a `renderQuestion` slot gets to render a custom form for one question. */
export interface RenderQuestionContext {
  question: UserQuestionItem;
  index: number;
  /** The answer recorded so far for this question. */
  answer: UserQuestionAnswerItem | undefined;
  /** Record a valid answer, or `undefined` while the form is invalid. */
  setAnswer: (answer: UserQuestionAnswerItem | undefined) => void;
  labels: InterruptLabels;
}

export interface UserQuestionCardProps extends InterruptRendererProps<UserQuestionResult> {
  /** Custom form for a question; return `null`/`undefined` to keep the built-in one. */
  renderQuestion?: (context: RenderQuestionContext) => ReactNode;
  now?: Clock;
}

/**
 * The `aidev:user_question` card: one question at a time with `< i / n >` navigation, single or
 * multiple choice with an extra "Others" option, free-text questions, and a `renderQuestion`
 * slot for custom forms. Submit resolves `{answers}` in question order; Skip cancels.
 *
 * Memoized: a transcript can hold many answered cards, and a chat update that leaves their props
 * unchanged should not re-render them. *
 * @example
 * <UserQuestionCard {...rendererProps}
 *   renderQuestion={({ question, setAnswer }) => question.header === 'Date' ?
 *     <DateInput onChange={(d) => setAnswer(d ? { question: question.question, answer: [{ label: 'date', description: d }] } : undefined)} /> : null} />
 */
export const UserQuestionCard = memo(function UserQuestionCard(props: UserQuestionCardProps) {
  if (!isUserQuestionInterrupt(props.interrupt)) {
    return malformedPayloadCard(props, 'The question interrupt carries no well-formed questions (metadata.questions).');
  }
  return <QuestionCardBody {...props} questions={props.interrupt.metadata.questions} />;
});

function QuestionCardBody(props: UserQuestionCardProps & { questions: UserQuestionItem[] }) {
  const { questions, renderQuestion, now } = props;
  const basics = useCardBasics(props, now);
  const { locale, labels, countdown, phase, shownResult, submit, dismiss } = basics;
  const [index, setIndex] = useState(0);
  const [drafts, setDrafts] = useState<Record<number, QuestionDraft>>({});
  // Answers set through the renderQuestion slot; a key present means the slot owns that question.
  const [custom, setCustom] = useState<Record<number, UserQuestionAnswerItem | undefined>>({});
  const questionRef = useRef<HTMLParagraphElement>(null);
  const moved = useRef(false);
  const groupId = useId();
  const questionId = useId();
  const textId = useId();
  const hintId = useId();

  // Focus follows navigation (not the first render): the new question is read out.
  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    questionRef.current?.focus();
  }, [index]);

  const answers = questions.map((q, i) => (i in custom ? custom[i] : answerFromDraft(q, drafts[i] ?? EMPTY_DRAFT)));
  const complete = answers.every(Boolean);
  const submitAll = () => submit({ answers: answers as UserQuestionAnswerItem[] });
  const total = questions.length;
  const go = (to: number) => {
    if (to < 0 || to >= total) return;
    moved.current = true;
    setIndex(to);
  };
  const updateDraft = (i: number, change: (draft: QuestionDraft) => QuestionDraft) =>
    setDrafts((all) => ({ ...all, [i]: change(all[i] ?? EMPTY_DRAFT) }));

  const answered = phase === 'answered';
  let announcement = '';
  if (phase === 'dismissed') announcement = labels.dismissed;
  else if (phase === 'cancelled') announcement = labels.questionSkipped;
  else if (answered) announcement = labels.questionAnswered;

  const title = props.interrupt.message ?? questions[0]?.question;
  // Answered, or skipped: then every question shows "no answer".
  const readOnly = (): ReadOnlyView => ({
    testId: answered ? 'user-question-answered' : 'user-question-skipped',
    tone: answered ? 'success' : 'neutral',
    badge: answered ? labels.questionAnswered : phase === 'dismissed' ? labels.dismissed : labels.questionSkipped,
    title,
    answer: userQuestionAnswerLine(questions, answered ? shownResult?.answers : undefined, labels, locale),
    details: () => (
      <UserQuestionAnsweredList
        questions={questions}
        answers={answered ? shownResult?.answers : undefined}
        labels={labels}
        locale={locale}
      />
    ),
    className: 'cki-question',
  });

  const interactive = () => {
    const question = questions[index];
    const draft = drafts[index] ?? EMPTY_DRAFT;
    const slot = renderQuestion?.({
      question,
      index,
      answer: answers[index],
      setAnswer: (answer) => setCustom((all) => ({ ...all, [index]: answer })),
      labels,
    });
    const onPick = (key: string) => {
      updateDraft(index, (d) => toggleOption(question, d, key));
      // A preset pick answers a single-choice question: move on. Multi / Others wait for the user.
      if (question.multiSelect !== true && key !== OTHERS_LABEL) go(index + 1);
    };
    const tag =
      question.multiSelect === true ? labels.questionMultiple : question.multiSelect === false ? labels.questionSingle : undefined;
    return (
      <div className="cki-card cki-question" data-testid="user-question-card" role="group" tabIndex={-1} aria-labelledby={groupId}>
        <div className="cki-card__header">
          <span className="cki-eyebrow" id={groupId}>
            {question.header || labels.questionEyebrow}
          </span>
          {tag ? <Badge tone="info">{tag}</Badge> : null}
          {/* A pager only where there is somewhere to go: one question shows no "1 / 1". */}
          {total > 1 ? (
            <div className="cki-pager">
              <button
                type="button"
                className="cki-button cki-button--icon"
                data-testid="user-question-prev"
                aria-label={labels.questionPrevious}
                disabled={index === 0}
                onClick={() => go(index - 1)}
              >
                <span aria-hidden="true">‹</span>
              </button>
              <span className="cki-pager__position">{formatLabel(labels.questionPosition, { index: index + 1, total })}</span>
              <button
                type="button"
                className="cki-button cki-button--icon"
                data-testid="user-question-next"
                aria-label={labels.questionNext}
                disabled={index === total - 1}
                onClick={() => go(index + 1)}
              >
                <span aria-hidden="true">›</span>
              </button>
            </div>
          ) : null}
        </div>
        <p className="cki-card__title" id={questionId} ref={questionRef} tabIndex={-1}>
          {question.question}
        </p>
        {slot !== null && slot !== undefined ? (
          <div className="cki-question__custom">{slot}</div>
        ) : isChoiceQuestion(question) ? (
          <UserQuestionOptions
            key={index}
            question={question}
            draft={draft}
            labels={labels}
            labelledBy={questionId}
            onPick={onPick}
            onOthersText={(text) => updateDraft(index, (d) => ({ ...d, othersText: text }))}
            onDone={() => {
              // Enter after typing an Others answer: next question, or submit once all are answered.
              if (!answers[index]) return;
              if (index < total - 1) go(index + 1);
              else if (complete) submitAll();
            }}
          />
        ) : (
          <label className="cki-field" htmlFor={textId}>
            <span className="cki-field__label">{labels.questionFreeText}</span>
            <textarea
              key={index}
              id={textId}
              className="cki-input"
              data-testid="user-question-text-input"
              rows={3}
              value={draft.text}
              onChange={(e) => updateDraft(index, (d) => ({ ...d, text: e.target.value }))}
            />
          </label>
        )}
        <div className="cki-actions">
          <button
            type="button"
            className="cki-button cki-button--primary"
            data-testid="user-question-submit"
            disabled={!complete}
            aria-describedby={complete ? undefined : hintId}
            onClick={submitAll}
          >
            {labels.questionSubmit}
          </button>
          <button type="button" className="cki-button cki-button--ghost" data-testid="user-question-skip" onClick={dismiss}>
            {labels.questionSkip}
          </button>
        </div>
        {complete ? null : (
          <p className="cki-card__note" id={hintId}>
            {labels.questionIncomplete}
          </p>
        )}
        <CountdownText countdown={countdown} labels={labels} />
      </div>
    );
  };

  return (
    <CardShell
      card={props}
      basics={basics}
      announcement={announcement}
      expired={{ testId: 'user-question-expired', title }}
      readOnly={readOnly}
      interactive={interactive}
    />
  );
}
