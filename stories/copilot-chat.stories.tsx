import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { interruptOutcome, runFinished, runStarted, ScriptedAgent, textMessage } from '../test/helpers/scripted-agent';
import { CHAT_STORY_PARAMETERS, ChatStory, sendMessage } from './support/chat-story';
import { SLOTS, timePickerInterrupt } from './support/fixtures';

/**
 * A scripted agent standing in for the Mastra `schedule_meeting` flow: the first run suspends
 * with the picker; the resume run quotes the choice, as the real tool's result would.
 */
function createSchedulingAgent() {
  return new ScriptedAgent((input, run) => {
    if (run === 0) return [runStarted(input), runFinished(input, interruptOutcome(timePickerInterrupt))];
    const entry = input.resume?.[0];
    const payload = (entry?.payload ?? {}) as { chosen_label?: string; cancelled?: boolean };
    const reply =
      entry?.status === 'cancelled'
        ? 'Sure, no meeting. What else can I do?'
        : payload.cancelled
          ? 'No meeting was scheduled.'
          : `Scheduled "Intro call with sales" for ${payload.chosen_label}.`;
    return [runStarted(input), ...textMessage(`reply-${run}`, reply), runFinished(input)];
  });
}

interface ChatProps {
  /** The hook's option: what a chat message does while the picker is open. */
  onChatWhileOpen?: 'dismiss' | 'block';
}

/** The public hook inside the real v2 chat, the way an app wires it. */
function ChatWithInterrupts({ onChatWhileOpen }: ChatProps) {
  return <ChatStory createAgent={createSchedulingAgent} config={{ onChatWhileOpen }} height={560} />;
}

const meta = {
  title: 'Integration/TimePickerCard in CopilotChat',
  component: ChatWithInterrupts,
  parameters: CHAT_STORY_PARAMETERS,
} satisfies Meta<typeof ChatWithInterrupts>;
export default meta;
type Story = StoryObj<typeof meta>;

export const BookACall: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await sendMessage(canvas, 'Book a call with sales');

    const card = await canvas.findByTestId('time-picker-card', {}, { timeout: 5000 });
    await expect(canvas.getByTestId('copilot-message-list')).toContainElement(card);
    await expect(within(card).getAllByTestId('time-picker-slot')).toHaveLength(4);
    await userEvent.click(within(card).getByRole('button', { name: SLOTS[2].label }));

    await expect(
      await canvas.findByText(`Scheduled "Intro call with sales" for ${SLOTS[2].label}.`, {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    const picked = await canvas.findByTestId('time-picker-picked');
    await expect(picked).toHaveTextContent('Booked');
    await expect(picked).toHaveTextContent(SLOTS[2].label);
    await expect(canvas.queryByTestId('time-picker-card')).toBeNull();
  },
};

/** `onChatWhileOpen: 'block'`: the user chats on while the picker waits; the agent refuses the message, and the card says why. */
export const ChatWhileTheCardIsOpen: Story = {
  args: { onChatWhileOpen: 'block' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const send = (text: string) => sendMessage(canvas, text);
    await send('Book a call with sales');
    const card = await canvas.findByTestId('time-picker-card', {}, { timeout: 5000 });
    await send('Hello?');

    const notice = await canvas.findByRole('alert', {}, { timeout: 5000 });
    await expect(notice).toHaveTextContent('Answer or dismiss this card before sending a new message.');
    await userEvent.click(within(card).getByRole('button', { name: SLOTS[0].label }));
    await expect(
      await canvas.findByText(`Scheduled "Intro call with sales" for ${SLOTS[0].label}.`, {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    await expect(canvas.queryByRole('alert')).toBeNull();
  },
};

/** Steer away (the default): the user chats on while the picker waits; it turns "Dismissed" and the message gets its reply. */
export const SteerAwayFromTheCard: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const send = (text: string) => sendMessage(canvas, text);
    await send('Book a call with sales');
    await canvas.findByTestId('time-picker-card', {}, { timeout: 5000 });
    await send('Hello?');
    await expect(await canvas.findByText('Sure, no meeting. What else can I do?', {}, { timeout: 5000 })).toBeInTheDocument();
    await expect(await canvas.findByText('Dismissed')).toBeInTheDocument();
    await expect(canvas.queryByTestId('time-picker-slot')).toBeNull();
  },
};
