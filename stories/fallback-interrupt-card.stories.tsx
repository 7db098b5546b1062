import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { FallbackInterruptCard } from '../components/fallback-interrupt-card/fallback-interrupt-card';
import { CardHarness } from './support/card-harness';
import { fixedClock, LONG_TEXT, LONG_WORD, PAST } from './support/fixtures';
import { zhCN } from '../src/i18n/locales/zh-CN';
import { readableDateTime } from '../src/i18n/date-time';
import { expectAnswerShownWhole, ISO_DATE_TIME, LONG_ANSWER } from './support/answer-checks';

const unknown = {
  id: 'int-42',
  reason: 'acme:confirm_deploy',
  toolCallId: 'call-42',
  message: 'Deploy build 1.4.2 to staging?',
  metadata: { build: '1.4.2', environment: 'staging' },
};

const withSchema = {
  ...unknown,
  responseSchema: {
    type: 'object',
    properties: {
      note: { type: 'string', title: 'Note', description: 'Shown in the deploy log' },
      replicas: { type: 'integer', title: 'Replicas' },
      region: { type: 'string', title: 'Region', enum: ['eu-west', 'us-east'] },
      notify: { type: 'boolean', title: 'Notify the team' },
    },
    required: ['replicas'],
  },
};

const meta = {
  title: 'Cards/FallbackInterruptCard',
  component: CardHarness,
  args: { card: FallbackInterruptCard, interrupt: unknown, extra: { now: fixedClock }, onResolve: fn(), onCancel: fn() },
} satisfies Meta<typeof CardHarness>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Pending: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const card = await canvas.findByTestId('fallback-interrupt-card');
    await expect(card).toHaveTextContent('Deploy build 1.4.2 to staging?');
    await expect(card).toHaveTextContent('acme:confirm_deploy');
    await userEvent.click(canvas.getByText('Details'));
    await expect(canvas.getByText(/"environment": "staging"/)).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(canvas.getByTestId('fallback-interrupt-card')).toHaveTextContent('Sent'));
    await expect(args.onResolve).toHaveBeenCalledWith({});
  },
};

export const SchemaForm: Story = {
  args: { interrupt: withSchema },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const continueButton = await canvas.findByRole('button', { name: 'Continue' });
    await expect(continueButton).toBeDisabled();
    await userEvent.type(canvas.getByLabelText('Note'), 'hotfix');
    await expect(canvas.getByLabelText('Note')).toHaveAccessibleDescription('Shown in the deploy log');
    await userEvent.type(canvas.getByLabelText(/Replicas/), '3');
    await userEvent.selectOptions(canvas.getByLabelText('Region'), 'us-east');
    await userEvent.click(canvas.getByLabelText('Notify the team'));
    await userEvent.click(continueButton);
    await waitFor(() => expect(canvas.getByTestId('fallback-interrupt-card')).toHaveTextContent('Sent'));
    await expect(args.onResolve).toHaveBeenCalledWith({ note: 'hotfix', replicas: 3, region: 'us-east', notify: true });
  },
};

export const Dismiss: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Dismiss' }));
    await expect(await canvas.findByTestId('fallback-interrupt-card')).toHaveTextContent('Dismissed');
    await expect(args.onCancel).toHaveBeenCalledTimes(1);
  },
};

export const UnreadableInterrupt: Story = {
  args: { interrupt: '{"id": "x", "reason": ' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('fallback-interrupt-problem')).toHaveTextContent('Problem:');
    await expect(canvas.getByTestId('fallback-interrupt-card')).toHaveTextContent('unknown');
  },
};

/** A LangGraph review request normalizeInterrupts() could not read (no config): the plain interrupt, with the problem. */
export const UnreadableLangGraphReview: Story = {
  args: {
    interrupt: {
      id: 'langgraph::1e0f3c9a7e5b4d2c8a6f0b9d7c5a3e1f',
      reason: 'langgraph:interrupt',
      metadata: {
        langgraph: {
          raw: [{ action_request: { action: 'send_email', args: { to: 'ops@example.com' } } }],
          problem:
            "The LangGraph review request's config should be an object, but it is missing. Without it the card cannot know which answers the graph takes.",
        },
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('fallback-interrupt-problem')).toHaveTextContent(
      "The LangGraph review request's config should be an object",
    );
    await expect(canvas.getByTestId('fallback-interrupt-card')).toHaveTextContent('langgraph:interrupt');
  },
};

export const HtmlIsText: Story = {
  args: { interrupt: { ...unknown, message: '<script>alert(1)</script><b>bold</b>' } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText('<script>alert(1)</script><b>bold</b>')).toBeInTheDocument();
    await expect(canvasElement.querySelector('script, b')).toBeNull();
  },
};

/** Answered through its form by keyboard: the summary shows what was sent, and takes the focus. */
export const AnsweredWithValues: Story = {
  args: { interrupt: withSchema },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(await canvas.findByLabelText(/Note/), LONG_ANSWER);
    await userEvent.type(canvas.getByLabelText(/Replicas/), '3');
    canvas.getByRole('button', { name: 'Continue' }).focus();
    await userEvent.keyboard('{Enter}');
    const answer = await canvas.findByTestId('read-only-answer');
    await expectAnswerShownWhole(answer, `Note: ${LONG_ANSWER}, Replicas: 3`);
    await expect(canvasElement.querySelector('.cki-summary')).toHaveFocus();
  },
};

/** Dates in the interrupt's details read as dates in the reader's locale. */
export const DatesInDetails: Story = {
  args: {
    interrupt: { ...unknown, metadata: { build: '1.4.2', scheduledFor: '2026-12-05T14:00:00.000Z', window: ['2026-12-05', '2026-12-06'] } },
    status: 'resolved',
    result: {},
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Details' }));
    await userEvent.click(canvas.getByText('Details', { selector: 'summary' }));
    await expect(canvas.getByTestId('read-only-details')).toHaveTextContent(readableDateTime('2026-12-05T14:00:00.000Z', 'en')!);
    await expect(canvasElement.textContent).not.toMatch(ISO_DATE_TIME);
    await expect(canvasElement.textContent).not.toMatch(/2026-12-0[56]/);
  },
};

export const Submitting: Story = {
  args: { settle: 'never' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Continue' }));
    await expect(await canvas.findByTestId('fallback-interrupt-card')).toHaveTextContent('Sending…');
  },
};

export const Resolved: Story = {
  args: { status: 'resolved', result: {} },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('fallback-interrupt-card')).toHaveTextContent('Sent');
    const toggle = canvas.getByRole('button', { name: 'Details' });
    await expect(canvas.getAllByRole('button')).toEqual([toggle]);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  },
};

/** The read-only card with its details opened: the reason and what the interrupt said. */
export const ResolvedDetailsOpen: Story = {
  args: { status: 'resolved', result: {} },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Details' }));
    const details = canvas.getByTestId('read-only-details');
    await expect(details).toHaveTextContent('Reason');
    await expect(canvas.getByRole('button', { name: 'Details' })).toHaveAttribute('aria-expanded', 'true');
  },
};

export const Cancelled: Story = {
  args: { status: 'cancelled' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('fallback-interrupt-card')).toHaveTextContent('Dismissed');
  },
};

export const Dismissed: Story = {
  args: { status: 'dismissed' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('fallback-interrupt-card')).toHaveTextContent('Dismissed');
  },
};

export const Expired: Story = {
  args: { interrupt: { ...unknown, expiresAt: PAST } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('fallback-interrupt-card')).toHaveTextContent('Expired');
    await expect(canvas.queryAllByRole('button')).toHaveLength(0);
  },
};

export const ErrorState: Story = {
  name: 'Error',
  args: { status: 'error', result: {}, error: 'Network error' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('interrupt-error')).toHaveTextContent('Network error');
    await userEvent.click(canvas.getByTestId('interrupt-retry'));
    await waitFor(() => expect(canvas.getByTestId('fallback-interrupt-card')).toHaveTextContent('Sent'));
  },
};

export const ZhCN: Story = {
  args: { ...zhCN, interrupt: withSchema },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('button', { name: '继续' })).toBeDisabled();
    await expect(canvas.getByRole('button', { name: '忽略' })).toBeEnabled();
    await expect(canvas.getByTestId('fallback-interrupt-card')).toHaveTextContent('必填');
  },
};

export const Dark: Story = {
  args: { interrupt: withSchema },
  parameters: { theme: 'dark' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('fallback-interrupt-card')).toBeVisible();
  },
};

export const VeryLongTexts: Story = {
  args: { interrupt: { ...unknown, message: LONG_TEXT, reason: `acme:${LONG_WORD}`, metadata: { text: LONG_TEXT, word: LONG_WORD } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('fallback-interrupt-card')).toHaveTextContent(LONG_TEXT);
  },
};
