import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { INTERRUPT_PEOPLE_KEY, type InterruptPeople } from '../src/protocol';
import { interruptOutcome, runFinished, runStarted, ScriptedAgent } from '../test/helpers/scripted-agent';
import { CHAT_STORY_PARAMETERS, ChatStory, sendMessage } from './support/chat-story';

/** What the durable runner tells this viewer of Dan's deploy: it waits for Dan, not for them. */
const forDan: InterruptPeople = { viewerMayAnswer: false, waitingFor: [{ id: 'dan', name: 'Dan' }] };

const deploy = {
  id: 'deploy-1',
  reason: 'aidev:tool_approval',
  message: 'Deploy the API?',
  metadata: { toolName: 'deploy', args: { service: 'api' }, [INTERRUPT_PEOPLE_KEY]: forDan },
};
const notify = {
  id: 'notify-1',
  reason: 'aidev:tool_approval',
  message: 'Notify the team?',
  metadata: { toolName: 'notify', args: { channel: '#releases' } },
};

/**
 * An agent standing where the server half would: it asks for a deploy the runner gave to Dan (and,
 * with "notify" in the message, for a notification the viewer may approve, in the same set).
 */
function createAgent() {
  return new ScriptedAgent((input) => {
    const asked = JSON.stringify(input.messages.at(-1)?.content ?? '');
    const set = asked.includes('notify') ? [deploy, notify] : [deploy];
    return [runStarted(input), runFinished(input, interruptOutcome(...set))];
  });
}

/** The viewer's chat, on a thread whose deploy waits for Dan. */
function ChatWaitingForDan() {
  return <ChatStory createAgent={createAgent} height={720} />;
}

const meta = {
  title: 'Integration/People in the chat',
  component: ChatWaitingForDan,
  parameters: CHAT_STORY_PARAMETERS,
} satisfies Meta<typeof ChatWaitingForDan>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The viewer chats while Dan's card is open: nothing is dismissed, and the card says the message waits. */
export const ChatWhileWaitingForSomeone: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await sendMessage(canvas, 'Deploy the API');
    await expect(await canvas.findByTestId('interrupt-waiting-for', {}, { timeout: 5000 })).toHaveTextContent('Waiting for Dan');
    await sendMessage(canvas, 'Any news?');
    const notice = await canvas.findByTestId('interrupt-answer-first', {}, { timeout: 5000 });
    await expect(notice).toHaveAttribute('role', 'alert');
    await expect(notice).toHaveTextContent('Your message was not sent: the agent takes no message until this request is answered.');
    await expect(canvas.getByTestId('interrupt-waiting-for')).toHaveTextContent('Waiting for Dan');
  },
};

/** The viewer approved their own card of a set whose other card waits for Dan: kept, and the card says so. */
export const AnswerHeldForSomeone: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await sendMessage(canvas, 'Deploy the API and notify the team');
    await canvas.findByTestId('interrupt-waiting-for', {}, { timeout: 5000 });
    const mine = canvas.getAllByTestId('approval-approve').find((button) => !button.matches(':disabled'))!;
    await userEvent.click(mine);
    const held = await canvas.findByTestId('interrupt-answer-held', {}, { timeout: 5000 });
    await expect(held).toHaveAttribute('role', 'status');
    await expect(held).toHaveTextContent('Not sent yet: the agent takes the answers of this set together, and one request waits for Dan.');
    await expect(canvas.queryByText('Sending…')).not.toBeInTheDocument();
  },
};
