import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { fromHitlRequest } from '../src/backends/langchain-hitl/request';
import { interruptOutcome, runFinished, runStarted, ScriptedAgent, textMessage } from '../test/helpers/scripted-agent';
import { CHAT_STORY_PARAMETERS, ChatStory, sendMessage } from './support/chat-story';

/** What LangChain's humanInTheLoopMiddleware raises for a step with three gated tool calls. */
const HITL_REQUEST = {
  actionRequests: [
    { name: 'tag_release', args: { version: 'v2.0.0' }, description: 'Tag the release?' },
    { name: 'send_email', args: { to: 'team@example.com', subject: 'v2 is out' }, description: 'Send this email?' },
    { name: 'delete_branch', args: { name: 'release-candidate' }, description: 'Delete this branch?' },
  ],
  reviewConfigs: [
    { actionName: 'tag_release', allowedDecisions: ['approve', 'edit'] },
    {
      actionName: 'send_email',
      allowedDecisions: ['approve', 'edit', 'reject'],
      argsSchema: { type: 'object', properties: { to: { type: 'string', title: 'To' }, subject: { type: 'string', title: 'Subject' } } },
    },
    { actionName: 'delete_branch', allowedDecisions: ['approve', 'reject'] },
  ],
};

/**
 * An agent that raises the cards the server half makes of that request (in a browser there is no
 * server half: the cards are built by the same reader, unsigned), then says what it received.
 */
function createReleaseAgent() {
  return new ScriptedAgent((input, run) => {
    if (run === 0) {
      const read = fromHitlRequest('7d1e0c4b9a8f4e3d2c1b0a9f8e7d6c5b', HITL_REQUEST);
      const cards = 'interrupts' in read ? read.interrupts : [];
      return [runStarted(input), runFinished(input, interruptOutcome(...cards))];
    }
    const answers = (input.resume ?? []).map((entry) => ((entry.payload as { approved?: boolean } | undefined)?.approved ? 'yes' : 'no'));
    return [runStarted(input), ...textMessage(`reply-${run}`, `Decisions: ${answers.join(', ')}.`), runFinished(input)];
  });
}

/** A LangChain humanInTheLoopMiddleware step in the real v2 chat: each card offers only what its call allows. */
function ReleaseInChat() {
  return <ChatStory createAgent={createReleaseAgent} height={900} />;
}

const meta = {
  title: 'Integration/LangChain humanInTheLoopMiddleware in CopilotChat',
  component: ReleaseInChat,
  parameters: CHAT_STORY_PARAMETERS,
} satisfies Meta<typeof ReleaseInChat>;
export default meta;
type Story = StoryObj<typeof meta>;

async function askForRelease(canvas: ReturnType<typeof within>) {
  await sendMessage(canvas, 'Release v2');
  return canvas.findByRole('group', { name: '3 approvals wait for you' }, { timeout: 5000 });
}
const cardOf = async (canvas: ReturnType<typeof within>, message: string) =>
  (await canvas.findByText(message)).closest('[data-testid="approval-card"]') as HTMLElement;

/** Three cards: tagging offers no Reject, deleting the branch no Edit; "Reject all" counts the two that can be rejected. */
export const Waiting: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const bar = await askForRelease(canvas);
    await expect(within(bar).getByRole('button', { name: 'Reject all (2)' })).toBeEnabled();
    await expect(within(await cardOf(canvas, 'Tag the release?')).queryByTestId('approval-reject')).toBeNull();
    await expect(within(await cardOf(canvas, 'Delete this branch?')).queryByTestId('approval-edit-open')).toBeNull();
  },
};

/** "Approve all": one resume carries the three decisions. */
export const ApproveAll: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const bar = await askForRelease(canvas);
    await userEvent.click(within(bar).getByRole('button', { name: 'Approve all (3)' }));
    await expect(await canvas.findByText('Decisions: yes, yes, yes.', {}, { timeout: 5000 })).toBeInTheDocument();
  },
};
