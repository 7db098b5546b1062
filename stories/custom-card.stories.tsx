import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { CardHarness } from './support/card-harness';
import { ConfirmCard } from './support/confirm-card';
import { fixedClock, PAST } from './support/fixtures';

const confirmInterrupt = { id: 'confirm-1', reason: 'app:confirm', message: 'Archive the old projects?' };

/** An app's own card on the library's `CardShell` (`copilotkit-interrupts/cards`). */
const meta = {
  title: 'Cards/Custom card on CardShell',
  component: CardHarness,
  args: { card: ConfirmCard, interrupt: confirmInterrupt, extra: { now: fixedClock }, onResolve: fn(), onCancel: fn() },
} satisfies Meta<typeof CardHarness>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Pending: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const card = await canvas.findByRole('group', { name: 'Archive the old projects?' });
    await expect(within(card).getByRole('button', { name: 'Confirm' })).toBeEnabled();
  },
};

export const Confirm: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Confirm' }));
    const answered = await canvas.findByTestId('confirm-card-answered');
    await expect(answered).toHaveTextContent('Confirmed');
    await expect(args.onResolve).toHaveBeenCalledWith({ confirmed: true });
    // The shell's live region says it, and focus lands on the answer's summary.
    await expect(canvas.getByRole('status')).toHaveTextContent('Confirmed');
    await waitFor(() => expect(answered).not.toHaveTextContent('Sending…'));
  },
};

export const Skip: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Skip' }));
    await expect(await canvas.findByTestId('confirm-card-answered')).toHaveTextContent('Skipped');
    await expect(args.onCancel).toHaveBeenCalledTimes(1);
    await expect(args.onResolve).not.toHaveBeenCalled();
  },
};

export const Resolved: Story = {
  args: { status: 'resolved', result: { confirmed: true } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('confirm-card-answered')).toHaveTextContent('Confirmed');
    await expect(canvas.queryAllByRole('button')).toHaveLength(0);
  },
};

export const Expired: Story = {
  args: { interrupt: { ...confirmInterrupt, expiresAt: PAST } },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const expired = await canvas.findByTestId('confirm-card-expired');
    await expect(expired).toHaveTextContent('Expired');
    await expect(expired).toHaveTextContent('Archive the old projects?');
    await expect(canvas.getByRole('status')).toHaveTextContent('Expired');
    await expect(canvas.queryAllByRole('button')).toHaveLength(0);
    await expect(args.onResolve).not.toHaveBeenCalled();
  },
};

export const ErrorState: Story = {
  name: 'Error',
  args: { failResume: true },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Confirm' }));
    await expect(await canvas.findByTestId('interrupt-error')).toHaveTextContent('Your answer could not be sent.');
    await userEvent.click(canvas.getByTestId('interrupt-retry'));
    await waitFor(() => expect(canvas.queryByTestId('interrupt-error')).toBeNull());
    await expect(args.onResolve).toHaveBeenCalledTimes(2);
  },
};
