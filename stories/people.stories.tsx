import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { ToolApprovalCard } from '../components/tool-approval-card/tool-approval-card';
import { UserQuestionCard } from '../components/user-question-card/user-question-card';
import { CardHarness } from './support/card-harness';
import type { AnyInterruptRenderer } from '../hooks/renderer-props';
import { directApprovalInterrupt, fixedClock, questionInterrupt } from './support/fixtures';
import { zhCN } from '../src/i18n/locales/zh-CN';
import { INTERRUPT_PEOPLE_KEY, type InterruptPeople } from '../src/protocol';

/** An interrupt as the durable runner streams it to one viewer: who it waits for, and who answered. */
const toViewer = <T extends { metadata: Record<string, unknown> }>(interrupt: T, people: InterruptPeople): T => ({
  ...interrupt,
  metadata: { ...interrupt.metadata, [INTERRUPT_PEOPLE_KEY]: people },
});

const forDan: InterruptPeople = { viewerMayAnswer: false, waitingFor: [{ id: 'dan', name: 'Dan' }, { role: 'on-call' }] };
const ANSWERED_AT = '2026-03-02T10:42:00.000Z';

const meta = {
  title: 'Cards/People',
  component: CardHarness,
  args: {
    card: ToolApprovalCard as AnyInterruptRenderer,
    interrupt: toViewer(directApprovalInterrupt, forDan),
    extra: { now: fixedClock },
    onResolve: fn(),
    onCancel: fn(),
  },
} satisfies Meta<typeof CardHarness>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The request is another person's to approve: the viewer reads it whole, under "Waiting for …", and cannot answer. */
export const WaitingForSomeone: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('interrupt-waiting-for')).toHaveTextContent('Waiting for Dan or anyone in on-call');
    await expect(canvas.getByTestId('approval-args')).toHaveTextContent('a.txt');
    const approve = canvas.getByTestId('approval-approve');
    await expect(approve).toBeDisabled();
    await userEvent.click(approve);
    await expect(args.onResolve).not.toHaveBeenCalled();
    // Screen readers hear who it waits for, and the request's group carries it as its name.
    await expect(canvas.getByRole('status')).toHaveTextContent('Waiting for Dan or anyone in on-call');
    await expect(canvas.getByRole('group', { name: 'Waiting for Dan or anyone in on-call' })).toBeInTheDocument();
  },
};

/** Four eyes, seen by the person who asked: anyone else may approve, not them. */
export const WaitingForSomeoneElse: Story = {
  args: { interrupt: toViewer(directApprovalInterrupt, { viewerMayAnswer: false, waitingFor: [] }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('interrupt-waiting-for')).toHaveTextContent('Waiting for someone else');
    await expect(canvas.getByTestId('approval-reject')).toBeDisabled();
  },
};

/** Its approvers named no one: no person can answer it, and the card says so. */
export const NoOneCanAnswer: Story = {
  args: { interrupt: toViewer(directApprovalInterrupt, { viewerMayAnswer: false, waitingFor: [], noOne: true }) },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByTestId('interrupt-waiting-for')).toHaveTextContent('No one can answer this request');
  },
};

/** A question waiting for someone else, in Chinese. */
export const WaitingForSomeoneZhCN: Story = {
  args: {
    card: UserQuestionCard as AnyInterruptRenderer,
    interrupt: toViewer(questionInterrupt(), { viewerMayAnswer: false, waitingFor: [{ id: 'ana', name: 'Ana' }] }),
    locale: 'zh-CN',
    labels: zhCN.labels,
  },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByTestId('interrupt-waiting-for')).toHaveTextContent('等待 Ana 处理');
  },
};

/** The approver's own view of the same request: an ordinary open card. */
export const ApproverMayAnswer: Story = {
  args: { interrupt: toViewer(directApprovalInterrupt, { ...forDan, viewerMayAnswer: true }) },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByTestId('approval-approve'));
    await expect(args.onResolve).toHaveBeenCalledWith(expect.objectContaining({ approved: true }));
    await expect(canvas.queryByTestId('interrupt-waiting-for')).not.toBeInTheDocument();
  },
};

/** Someone else approved it: the answered card says who, and when. */
export const AnsweredBySomeoneElse: Story = {
  args: {
    interrupt: toViewer(directApprovalInterrupt, {
      viewerMayAnswer: false,
      waitingFor: [{ id: 'ana', name: 'Ana' }],
      answeredBy: { id: 'ana', name: 'Ana', at: ANSWERED_AT, isViewer: false },
    }),
    status: 'resolved',
    result: { approved: true },
  },
  play: async ({ canvasElement }) => {
    const line = await within(canvasElement).findByTestId('interrupt-answered-by');
    await expect(line.textContent).toMatch(/^Approved by Ana · .*\d{2}:42/);
  },
};

/** The viewer approved it themselves: no line says so. */
export const AnsweredByTheViewer: Story = {
  args: {
    interrupt: toViewer(directApprovalInterrupt, {
      viewerMayAnswer: false,
      waitingFor: [],
      answeredBy: { id: 'ana', name: 'Ana', at: ANSWERED_AT, isViewer: true },
    }),
    status: 'resolved',
    result: { approved: true },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('approval-status')).toHaveTextContent('Approved');
    await expect(canvas.queryByTestId('interrupt-answered-by')).not.toBeInTheDocument();
  },
};
