import type { Meta, StoryObj } from '@storybook/react-vite';
import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import '@copilotkit/react-core/v2/styles.css';
import { useState } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { useInterruptRenderers } from '../components/interrupt-renderers';
import { interruptOutcome, runFinished, runStarted, ScriptedAgent, textMessage } from '../test/helpers/scripted-agent';
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

function Interrupts({ onChatWhileOpen }: ChatProps) {
  return useInterruptRenderers({ onChatWhileOpen });
}

/** The public hook inside the real v2 chat, the way an app wires it. */
function ChatWithInterrupts({ onChatWhileOpen }: ChatProps) {
  const [agent] = useState(createSchedulingAgent);
  return (
    <CopilotKitProvider agents__unsafe_dev_only={{ default: agent }}>
      <Interrupts onChatWhileOpen={onChatWhileOpen} />
      <div style={{ height: 560, maxWidth: 720 }}>
        <CopilotChat />
      </div>
    </CopilotKitProvider>
  );
}

const meta = {
  title: 'Integration/TimePickerCard in CopilotChat',
  component: ChatWithInterrupts,
  parameters: {
    layout: 'fullscreen',
    // CopilotKit 1.74's own icon-only "add" menu and send buttons have no accessible name (axe:
    // button-name). They are not ours to fix; everything else in the chat, our card included, is checked.
    a11y: { context: { exclude: ['[data-testid="copilot-add-menu-button"]', '[data-testid="copilot-send-button"]'] } },
  },
} satisfies Meta<typeof ChatWithInterrupts>;
export default meta;
type Story = StoryObj<typeof meta>;

export const BookACall: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(await canvas.findByTestId('copilot-chat-textarea'), 'Book a call with sales');
    await waitFor(() => expect(canvas.getByTestId('copilot-send-button')).toBeEnabled());
    await userEvent.click(canvas.getByTestId('copilot-send-button'));

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

/** Types a message into the chat and sends it, as a user would. */
async function sendInChat(canvas: ReturnType<typeof within>, text: string) {
  await userEvent.type(await canvas.findByTestId('copilot-chat-textarea'), text);
  await waitFor(() => expect(canvas.getByTestId('copilot-send-button')).toBeEnabled());
  await userEvent.click(canvas.getByTestId('copilot-send-button'));
}

/** `onChatWhileOpen: 'block'`: the user chats on while the picker waits; the agent refuses the message, and the card says why. */
export const ChatWhileTheCardIsOpen: Story = {
  args: { onChatWhileOpen: 'block' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const send = (text: string) => sendInChat(canvas, text);
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
    const send = (text: string) => sendInChat(canvas, text);
    await send('Book a call with sales');
    await canvas.findByTestId('time-picker-card', {}, { timeout: 5000 });
    await send('Hello?');
    await expect(await canvas.findByText('Sure, no meeting. What else can I do?', {}, { timeout: 5000 })).toBeInTheDocument();
    await expect(await canvas.findByText('Dismissed')).toBeInTheDocument();
    await expect(canvas.queryByTestId('time-picker-slot')).toBeNull();
  },
};
