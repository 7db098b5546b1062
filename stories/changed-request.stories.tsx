import type { Meta, StoryObj } from '@storybook/react-vite';
import type { BaseEvent } from '@ag-ui/client';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { ResumeRefusal } from '../src/protocol';
import { interruptOutcome, runFinished, runStarted, ScriptedAgent, textMessage } from '../test/helpers/scripted-agent';
import { CHAT_STORY_PARAMETERS, ChatStory, sendMessage } from './support/chat-story';

const approval = (id: string, name: string) => ({
  id,
  reason: 'aidev:tool_approval',
  message: 'Delete this branch?',
  metadata: { toolName: 'delete_branch', args: { name } },
});

/**
 * An agent whose request changes while its card is open, standing where the server half would:
 * the approval of the card that showed "old-feature" is refused as changed, and the refusal
 * carries the request as it is now (delete "main"); an answer to that one goes through.
 */
function createChangingAgent() {
  return new ScriptedAgent((input, run) => {
    if (run === 0) return [runStarted(input), runFinished(input, interruptOutcome(approval('delete-1', 'old-feature')))];
    const entry = input.resume?.[0];
    if (entry?.interruptId === 'delete-1') {
      return [
        {
          type: 'RUN_ERROR',
          code: ResumeRefusal.Changed,
          message: 'The answer to interrupt "delete-1" was refused (interrupt_changed). This request changed. Review it again.',
          interrupts: [approval('delete-1-now', 'main')],
        } as unknown as BaseEvent,
      ];
    }
    const approved = (entry?.payload as { approved?: boolean } | undefined)?.approved;
    return [runStarted(input), ...textMessage(`reply-${run}`, approved ? 'Deleted main.' : 'Kept main.'), runFinished(input)];
  });
}

/** An approval card in the real v2 chat whose request changes before the answer arrives. */
function ChangedRequestInChat() {
  return <ChatStory createAgent={createChangingAgent} height={720} />;
}

const meta = {
  title: 'Integration/Approval whose request changed',
  component: ChangedRequestInChat,
  parameters: CHAT_STORY_PARAMETERS,
} satisfies Meta<typeof ChangedRequestInChat>;
export default meta;
type Story = StoryObj<typeof meta>;

async function approveTheOldRequest(canvas: ReturnType<typeof within>) {
  await sendMessage(canvas, 'Clean up the branches');
  const card = await canvas.findByTestId('approval-card', {}, { timeout: 5000 });
  await expect(within(card).getByTestId('approval-args')).toHaveTextContent('old-feature');
  await userEvent.click(within(card).getByTestId('approval-approve'));
  return canvas.findByTestId('interrupt-request-changed', {}, { timeout: 5000 });
}

/** The approval was refused: the card says so, with the request as it is now, and takes the focus. */
export const RequestChanged: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const notice = await approveTheOldRequest(canvas);
    await expect(notice).toHaveTextContent('This request changed. Review it again.');
    await expect(notice).toHaveAttribute('role', 'alert');
    await waitFor(() => expect(notice).toHaveFocus());
    const card = notice.closest('[data-interrupt-id]') as HTMLElement;
    await expect(within(card).getByTestId('approval-args')).toHaveTextContent('main');
    await expect(within(card).getByTestId('approval-approve')).toBeEnabled();
  },
};

/** Approving the request as it is now goes through; the notice goes with the open card. */
export const ApproveTheNewRequest: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const notice = await approveTheOldRequest(canvas);
    const card = notice.closest('[data-interrupt-id]') as HTMLElement;
    await userEvent.click(within(card).getByTestId('approval-approve'));
    await expect(await canvas.findByText('Deleted main.', {}, { timeout: 5000 })).toBeInTheDocument();
    await expect(canvas.queryByTestId('interrupt-request-changed')).toBeNull();
  },
};
