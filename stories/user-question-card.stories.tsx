import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import type { RenderQuestionContext } from '../components/user-question-card/user-question-card';
import { UserQuestionCard } from '../components/user-question-card/user-question-card';
import { CardHarness } from './support/card-harness';
import { fixedClock, LONG_TEXT, PAST, questionInterrupt, questions } from './support/fixtures';
import { zhCN } from '../src/i18n/locales/zh-CN';
import { readableDateTime } from '../src/i18n/date-time';
import { expectAnswerShownWhole, ISO_DATE_TIME, LONG_ANSWER } from './support/answer-checks';

const meta = {
  title: 'Cards/UserQuestionCard',
  component: CardHarness,
  args: { card: UserQuestionCard, interrupt: questionInterrupt(), extra: { now: fixedClock }, onResolve: fn(), onCancel: fn() },
} satisfies Meta<typeof CardHarness>;
export default meta;
type Story = StoryObj<typeof meta>;

const single = (q: Record<string, unknown>) => questionInterrupt([q]);

export const Pending: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const card = await canvas.findByTestId('user-question-card');
    await expect(card).toHaveTextContent('1 / 3');
    await expect(card).toHaveTextContent('Single choice');
    await expect(card).toHaveTextContent(questions[0].question);
    const options = canvas.getAllByTestId('user-question-option');
    await expect(options.map((o) => o.querySelector('.cki-option__label')?.textContent)).toEqual(['basic', 'optimized', 'Others']);
    await expect(canvas.getByRole('radiogroup')).toBeInTheDocument();
    await expect(canvas.getByTestId('user-question-prev')).toBeDisabled();
    await expect(canvas.getByTestId('user-question-submit')).toBeDisabled();
    await expect(canvas.getByTestId('user-question-submit')).toHaveAccessibleDescription('Answer every question to submit.');
  },
};

export const SingleChoiceAdvances: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click((await canvas.findAllByRole('radio'))[1]);
    await expect(await canvas.findByText(questions[1].question)).toHaveFocus();
    await expect(canvas.getByTestId('user-question-card')).toHaveTextContent('2 / 3');
    await expect(canvas.getByTestId('user-question-card')).toHaveTextContent('Multiple choice');
    await userEvent.click(canvas.getByTestId('user-question-prev'));
    await expect(canvas.getByRole('radio', { name: /optimized/ })).toHaveAttribute('aria-checked', 'true');
  },
};

export const MultipleChoiceWithOthers: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByTestId('user-question-next'));
    await expect(canvas.getByRole('group', { name: questions[1].question })).toBeInTheDocument();
    await userEvent.click(canvas.getByRole('checkbox', { name: 'Java' }));
    await userEvent.click(canvas.getByRole('checkbox', { name: 'Go' }));
    await expect(canvas.getByTestId('user-question-card')).toHaveTextContent('2 / 3');
    await userEvent.click(canvas.getByRole('checkbox', { name: 'Others' }));
    const input = canvas.getByTestId('user-question-others-input');
    await expect(input).toHaveFocus();
    await userEvent.type(input, 'Rust');
    await expect(canvas.getByRole('checkbox', { name: 'Java' })).toHaveAttribute('aria-checked', 'true');
    await userEvent.click(canvas.getByRole('checkbox', { name: 'Go' }));
    await expect(canvas.getByRole('checkbox', { name: 'Go' })).toHaveAttribute('aria-checked', 'false');
  },
};

export const AnswerAllAndSubmit: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('radio', { name: /basic/ }));
    await userEvent.click(await canvas.findByRole('checkbox', { name: 'Java' }));
    await userEvent.click(canvas.getByRole('checkbox', { name: 'Others' }));
    await userEvent.type(canvas.getByTestId('user-question-others-input'), 'Rust{Enter}');
    await expect(canvas.getByTestId('user-question-card')).toHaveTextContent('3 / 3');
    await expect(canvas.getByTestId('user-question-submit')).toBeDisabled();
    await userEvent.type(canvas.getByLabelText('Your answer'), 'Keep it simple');
    await userEvent.click(canvas.getByTestId('user-question-submit'));
    const answered = await canvas.findByTestId('user-question-answered');
    await expect(answered).toHaveTextContent('Answered');
    await expect(within(answered).getByTestId('read-only-answer')).toHaveTextContent('basic · Java, Rust · Keep it simple');
    await userEvent.click(canvas.getByRole('button', { name: 'Details' }));
    await expect(answered).toHaveTextContent('basic — Plain bubble sort');
    await expect(answered).toHaveTextContent('Rust');
    await expect(answered).toHaveTextContent('Keep it simple');
    await expect(args.onResolve).toHaveBeenCalledWith({
      answers: [
        { question: questions[0].question, multiSelect: false, answer: [{ label: 'basic', description: 'Plain bubble sort' }] },
        {
          question: questions[1].question,
          multiSelect: true,
          answer: [
            { label: 'Java', description: 'Java' },
            { label: 'others', description: 'Rust' },
          ],
        },
        { question: questions[2].question, answer: [{ label: 'others', description: 'Keep it simple' }] },
      ],
    });
  },
};

export const OthersNeedsText: Story = {
  args: { interrupt: single(questions[0]) },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('radio', { name: 'Others' }));
    // One question: no pager ("‹ 1 / 1 ›" leads nowhere).
    await expect(canvas.queryByTestId('user-question-prev')).not.toBeInTheDocument();
    await expect(canvas.getByTestId('user-question-card')).not.toHaveTextContent('1 / 1');
    await expect(canvas.getByTestId('user-question-submit')).toBeDisabled();
    await userEvent.type(canvas.getByTestId('user-question-others-input'), '   ');
    await expect(canvas.getByTestId('user-question-submit')).toBeDisabled();
    await userEvent.type(canvas.getByTestId('user-question-others-input'), 'Merge sort');
    await expect(canvas.getByTestId('user-question-submit')).toBeEnabled();
    // Enter in the Others field on the last question submits.
    await userEvent.keyboard('{Enter}');
    await canvas.findByTestId('user-question-answered');
    await expect(args.onResolve).toHaveBeenCalledWith({
      answers: [{ question: questions[0].question, multiSelect: false, answer: [{ label: 'others', description: 'Merge sort' }] }],
    });
  },
};

/** Two options share a label (told apart by their descriptions): picking one picks that one only. */
export const TwoOptionsOneLabel: Story = {
  args: {
    interrupt: single({
      question: 'Where should I deploy?',
      multiSelect: false,
      options: [
        { label: 'Deploy', description: 'to staging' },
        { label: 'Deploy', description: 'to production' },
      ],
    }),
  },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const [staging, production] = await canvas.findAllByRole('radio', { name: /Deploy/ });
    await userEvent.click(staging);
    await expect(staging).toHaveAttribute('aria-checked', 'true');
    await expect(production).toHaveAttribute('aria-checked', 'false');
    await userEvent.click(canvas.getByTestId('user-question-submit'));
    await canvas.findByTestId('user-question-answered');
    await expect(args.onResolve).toHaveBeenCalledWith({
      answers: [{ question: 'Where should I deploy?', multiSelect: false, answer: [{ label: 'Deploy', description: 'to staging' }] }],
    });
  },
};

export const KeyboardOnly: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByTestId('user-question-card');
    const [basic, optimized, others] = canvas.getAllByRole('radio');
    basic.focus();
    await userEvent.keyboard('{ArrowDown}');
    await expect(optimized).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    await expect(others).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    await expect(basic).toHaveFocus();
    await userEvent.keyboard('{ArrowUp}');
    await expect(others).toHaveFocus();
    await userEvent.keyboard('{ArrowUp}');
    await expect(optimized).toHaveAttribute('aria-checked', 'false');
    await userEvent.keyboard('{Enter}');
    await expect(await canvas.findByText(questions[1].question)).toHaveFocus();
    await userEvent.click(canvas.getByTestId('user-question-prev'));
    await expect(canvas.getByRole('radio', { name: /optimized/ })).toHaveAttribute('tabindex', '0');
    await expect(canvas.getByRole('radio', { name: /basic/ })).toHaveAttribute('tabindex', '-1');
  },
};

export const NoTagSingleBehaviour: Story = {
  args: { interrupt: questionInterrupt([{ ...questions[0], multiSelect: undefined }, questions[2]]) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const card = await canvas.findByTestId('user-question-card');
    await expect(card).not.toHaveTextContent('Single choice');
    await expect(card).not.toHaveTextContent('Multiple choice');
    await userEvent.click(canvas.getByRole('radio', { name: /basic/ }));
    await expect(await canvas.findByText(questions[2].question)).toHaveFocus();
  },
};

function DateQuestion({ question, setAnswer }: RenderQuestionContext) {
  return (
    <label>
      Meeting date
      <input
        type="date"
        onChange={(e) =>
          setAnswer(e.target.value ? { question: question.question, answer: [{ label: 'date', description: e.target.value }] } : undefined)
        }
      />
    </label>
  );
}

export const CustomQuestionSlot: Story = {
  args: {
    interrupt: single({ header: 'Date', question: 'When should we meet?' }),
    extra: {
      now: fixedClock,
      renderQuestion: (ctx: RenderQuestionContext) => (ctx.question.header === 'Date' ? <DateQuestion {...ctx} /> : null),
    },
  },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const input = await canvas.findByLabelText('Meeting date');
    await expect(canvas.queryByTestId('user-question-text-input')).toBeNull();
    await userEvent.type(input, '2026-05-04');
    await waitFor(() => expect(canvas.getByTestId('user-question-submit')).toBeEnabled());
    await userEvent.click(canvas.getByTestId('user-question-submit'));
    await canvas.findByTestId('user-question-answered');
    await expect(args.onResolve).toHaveBeenCalledWith({
      answers: [{ question: 'When should we meet?', answer: [{ label: 'date', description: '2026-05-04' }] }],
    });
  },
};

export const Skip: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByTestId('user-question-skip'));
    await expect(await canvas.findByTestId('user-question-skipped')).toHaveTextContent('Skipped');
    await expect(args.onCancel).toHaveBeenCalledTimes(1);
    await expect(args.onResolve).not.toHaveBeenCalled();
  },
};

export const Submitting: Story = {
  args: { interrupt: single(questions[0]), settle: 'never' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('radio', { name: /optimized/ }));
    await userEvent.click(canvas.getByTestId('user-question-submit'));
    await expect(await canvas.findByTestId('user-question-answered')).toHaveTextContent('Sending…');
  },
};

export const Answered: Story = {
  args: {
    status: 'resolved',
    result: {
      answers: [
        {
          question: questions[0].question,
          multiSelect: false,
          answer: [{ label: 'optimized', description: 'Bubble sort with early exit' }],
        },
        {
          question: questions[1].question,
          multiSelect: true,
          answer: [
            { label: 'Go', description: 'Go' },
            { label: 'others', description: 'Rust' },
          ],
        },
        { question: questions[2].question, answer: [{ label: 'others', description: 'Nothing' }] },
      ],
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const answered = await canvas.findByTestId('user-question-answered');
    // Compact: every answer in one line, the questions behind the disclosure.
    await expect(within(answered).getByTestId('read-only-answer')).toHaveTextContent('optimized · Go, Rust · Nothing');
    await expect(canvas.getAllByRole('button')).toEqual([canvas.getByRole('button', { name: 'Details' })]);
    await expect(canvas.queryByText(questions[1].question)).toBeNull();
  },
};

/** Long and many-part answers: the summary shows every one whole, wrapped, not cut to a few letters. */
export const AnsweredLong: Story = {
  args: {
    status: 'resolved',
    result: {
      answers: [
        {
          question: questions[0].question,
          multiSelect: false,
          answer: [{ label: 'optimized', description: 'Bubble sort with early exit' }],
        },
        {
          question: questions[1].question,
          multiSelect: true,
          answer: [
            { label: 'Java', description: 'Java' },
            { label: 'Go', description: 'Go' },
            { label: 'Python', description: 'Python' },
          ],
        },
        { question: questions[2].question, answer: [{ label: 'others', description: LONG_ANSWER }] },
      ],
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const answered = await canvas.findByTestId('user-question-answered');
    await expectAnswerShownWhole(within(answered).getByTestId('read-only-answer'), `optimized · Java, Go, Python · ${LONG_ANSWER}`);
  },
};

/** A date answered through a custom question form reads as a date, in the summary and the details. */
export const AnsweredDate: Story = {
  args: {
    interrupt: questionInterrupt([{ header: 'Date', question: 'When should it ship?' }]),
    status: 'resolved',
    result: { answers: [{ question: 'When should it ship?', answer: [{ label: 'others', description: '2026-12-05T14:00:00.000Z' }] }] },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const answered = await canvas.findByTestId('user-question-answered');
    await expectAnswerShownWhole(within(answered).getByTestId('read-only-answer'), readableDateTime('2026-12-05T14:00:00.000Z', 'en')!);
    await userEvent.click(canvas.getByRole('button', { name: 'Details' }));
    await expect(canvasElement.textContent).not.toMatch(ISO_DATE_TIME);
  },
};

/** Submitted by keyboard: focus moves to the answered card's summary, not to the page. */
export const KeyboardSubmitFocus: Story = {
  args: { interrupt: questionInterrupt([{ header: 'Notes', question: 'Anything else we should know?' }]) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(await canvas.findByLabelText('Your answer'), 'Ship on Friday');
    await userEvent.tab();
    await expect(canvas.getByTestId('user-question-submit')).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    const answered = await canvas.findByTestId('user-question-answered');
    await expect(answered.querySelector('.cki-summary')).toHaveFocus();
    await expect(within(answered).getByTestId('read-only-answer')).toHaveTextContent('Ship on Friday');
  },
};

/** The answered card with its details opened: every question with its answers. */
export const AnsweredDetailsOpen: Story = {
  args: Answered.args,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const answered = await canvas.findByTestId('user-question-answered');
    await userEvent.click(canvas.getByRole('button', { name: 'Details' }));
    for (const q of questions) await expect(answered).toHaveTextContent(q.question);
    await expect(answered).toHaveTextContent('optimized — Bubble sort with early exit');
    await expect(canvas.getByRole('button', { name: 'Details' })).toHaveAttribute('aria-expanded', 'true');
  },
};

export const Skipped: Story = {
  args: { status: 'cancelled' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const skipped = await canvas.findByTestId('user-question-skipped');
    await expect(skipped).toHaveTextContent('Skipped');
    await expect(skipped).toHaveTextContent('No answer');
    await userEvent.click(canvas.getByRole('button', { name: 'Details' }));
    await expect(canvas.getByTestId('read-only-details')).toHaveTextContent(questions[0].question);
  },
};

/** Steer-away: the user chatted on instead of answering; the agent got `cancelled`. */
export const Dismissed: Story = {
  args: { status: 'dismissed' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('user-question-skipped')).toHaveTextContent('Dismissed');
    // Nothing left to answer: the one button is the details disclosure.
    await expect(canvas.getAllByRole('button')).toEqual([canvas.getByRole('button', { name: 'Details' })]);
  },
};

export const Expired: Story = {
  args: { interrupt: questionInterrupt(questions, { expiresAt: PAST }) },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('user-question-expired')).toHaveTextContent('Expired');
    await expect(args.onResolve).not.toHaveBeenCalled();
  },
};

export const ErrorState: Story = {
  name: 'Error',
  args: { interrupt: single(questions[0]), failResume: true },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('radio', { name: /basic/ }));
    await userEvent.click(canvas.getByTestId('user-question-submit'));
    await userEvent.click(await canvas.findByTestId('interrupt-retry'));
    await waitFor(() => expect(canvas.queryByTestId('interrupt-error')).toBeNull());
    await expect(args.onResolve).toHaveBeenCalledTimes(2);
  },
};

export const ZhCN: Story = {
  args: {
    ...zhCN,
    interrupt: questionInterrupt([
      {
        header: '请选择实现方案',
        multiSelect: false,
        question: '你希望采用哪种排序实现？',
        options: [
          { label: 'basic', description: '基础冒泡排序' },
          { label: 'optimized', description: '提前终止优化版' },
        ],
      },
    ]),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const card = await canvas.findByTestId('user-question-card');
    await expect(card).toHaveTextContent('单选');
    await expect(canvas.getByRole('radio', { name: '其他' })).toBeInTheDocument();
    await expect(canvas.getByTestId('user-question-submit')).toHaveTextContent('提交');
    await expect(canvas.getByTestId('user-question-skip')).toHaveTextContent('跳过');
  },
};

export const Dark: Story = {
  parameters: { theme: 'dark' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('radio', { name: 'Others' }));
    await expect(canvas.getByTestId('user-question-others-input')).toBeVisible();
  },
};

export const VeryLongTexts: Story = {
  args: {
    interrupt: single({
      header: LONG_TEXT.slice(0, 120),
      multiSelect: true,
      question: LONG_TEXT,
      options: Array.from({ length: 6 }, (_, i) => ({ label: `Option ${i + 1} ${LONG_TEXT.slice(0, 60)}`, description: LONG_TEXT })),
    }),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findAllByRole('checkbox')).toHaveLength(7);
  },
};

export const BadPayload: Story = {
  args: { interrupt: questionInterrupt('not a list') },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('fallback-interrupt-card')).toHaveTextContent('no well-formed questions');
  },
};

export const DarkAnsweredWithError: Story = {
  args: {
    interrupt: single(questions[0]),
    status: 'error',
    error: 'The agent could not be reached.',
    result: {
      answers: [{ question: questions[0].question, multiSelect: false, answer: [{ label: 'basic', description: 'Plain bubble sort' }] }],
    },
  },
  parameters: { theme: 'dark' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('user-question-answered')).toHaveTextContent('basic');
    await expect(canvas.getByTestId('interrupt-error')).toHaveTextContent('The agent could not be reached.');
  },
};
