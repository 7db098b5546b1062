import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { InterruptMessageRender } from '../components/interrupt-message-render';
import { onDemand } from '../components/host/on-demand';
import type { AnyInterruptRenderer } from '../hooks/renderer-props';
import { APPROVAL_STATUS, InterruptReason, MessageRole, MessageStatus, type InterruptMessage } from '../src/protocol';
import { approvalInterrupt, questionInterrupt, questions, ticket } from './support/fixtures';
import { zhCN } from '../src/i18n/locales/zh-CN';

const pendingMessage: InterruptMessage = {
  id: 'msg_interrupt_1',
  messageId: 'msg_interrupt_1',
  role: MessageRole.Interrupt,
  status: MessageStatus.Pending,
  content: {
    message: 'Two things need your attention',
    outcome: { type: 'interrupt', interrupts: [approvalInterrupt() as never, questionInterrupt([questions[0]]) as never] },
  },
};

const approvalEcho: InterruptMessage = {
  id: 'msg_interrupt_2',
  messageId: 'msg_interrupt_2',
  role: MessageRole.Interrupt,
  status: MessageStatus.Complete,
  content: {
    outcome: { type: 'success' },
    result: {
      interruptId: 'interrupt_ai_dev_tool_approval',
      reason: InterruptReason.AIDevToolApproval,
      status: 'resolved',
      payload: { metadata: { ticket: { ...ticket, status: APPROVAL_STATUS.APPROVED } } },
    },
  },
};

const questionEcho: InterruptMessage = {
  id: 'msg_interrupt_3',
  messageId: 'msg_interrupt_3',
  role: MessageRole.Interrupt,
  status: MessageStatus.Complete,
  content: {
    outcome: { type: 'success' },
    result: {
      interruptId: 'interrupt_question_1',
      reason: InterruptReason.UserQuestion,
      status: 'resolved',
      payload: {
        answers: [
          {
            question: '请选择语言',
            multiSelect: true,
            answer: [
              { label: 'Java', description: 'Java' },
              { label: 'others', description: 'Rust' },
            ],
          },
        ],
      },
    },
  },
};

const meta = {
  title: 'Cards/InterruptMessageRender',
  component: InterruptMessageRender,
  args: { message: pendingMessage, onInterruptResume: fn() },
} satisfies Meta<typeof InterruptMessageRender>;
export default meta;
type Story = StoryObj<typeof meta>;

export const InterruptOutcome: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText('Two things need your attention')).toBeInTheDocument();
    // The built-in cards arrive on demand: the first render may hold their placeholders.
    await expect(await canvas.findByTestId('approval-card')).toBeInTheDocument();
    await userEvent.click(await canvas.findByRole('radio', { name: /basic/ }));
    await userEvent.click(canvas.getByTestId('user-question-submit'));
    await canvas.findByTestId('user-question-answered');
    await expect(args.onInterruptResume).toHaveBeenCalledWith(
      {
        interruptId: 'interrupt_question_1',
        reason: 'aidev:user_question',
        status: 'resolved',
        payload: {
          answers: [
            { question: questions[0].question, multiSelect: false, answer: [{ label: 'basic', description: 'Plain bubble sort' }] },
          ],
        },
      },
      expect.objectContaining({ id: 'interrupt_question_1' }),
    );
  },
};

export const ApprovalEcho: Story = {
  args: { message: approvalEcho },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const resolved = await canvas.findByTestId('approval-card-resolved');
    await expect(within(resolved).getByTestId('approval-status')).toHaveTextContent('Approved');
    await expect(canvas.getAllByRole('button')).toEqual([canvas.getByRole('button', { name: 'Details' })]);
  },
};

export const QuestionEcho: Story = {
  args: { message: questionEcho, ...zhCN },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const answered = await canvas.findByTestId('user-question-answered');
    await expect(answered).toHaveTextContent('已回答');
    await expect(answered).toHaveTextContent('请选择语言');
    await expect(answered).toHaveTextContent('Rust');
  },
};

/** A card whose code never arrives, so the story holds the placeholder every on-demand card shows first. */
const neverArrives = onDemand(() => new Promise<AnyInterruptRenderer>(() => {})) as AnyInterruptRenderer;

export const CardOnItsWay: Story = {
  args: { renderers: { 'aidev:tool_approval': neverArrives, 'aidev:user_question': neverArrives } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText('Two things need your attention')).toBeInTheDocument();
    const placeholders = canvasElement.querySelectorAll('[aria-busy="true"]');
    await expect(placeholders).toHaveLength(2);
    for (const placeholder of placeholders) await expect(placeholder).toHaveTextContent('Loading the card…');
    await expect(canvas.queryByRole('button')).not.toBeInTheDocument();
  },
};
