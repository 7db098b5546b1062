import type { Meta, StoryObj } from '@storybook/react-vite';
import { useLayoutEffect, useSyncExternalStore } from 'react';
import { expect, userEvent, within } from 'storybook/test';
import { interruptOutcome, runFinished, runStarted, ScriptedAgent, textMessage } from '../test/helpers/scripted-agent';
import { CHAT_STORY_PARAMETERS, ChatStory, sendMessage } from './support/chat-story';
import { directApprovalInterrupt } from './support/fixtures';

/** The page's own title: what the notice puts its count in front of, and what comes back after. */
const PAGE_TITLE = 'Acme support';

/**
 * A scripted agent that thinks for `delayMs` before it asks to delete three files: long enough
 * to look at another tab meanwhile. The resume run says what it did with the answer.
 */
function createSlowAgent(delayMs: number) {
  return new ScriptedAgent((input, run) => {
    if (run === 0) {
      const think = () => new Promise((done) => setTimeout(done, delayMs));
      return [runStarted(input), think, runFinished(input, interruptOutcome(directApprovalInterrupt))];
    }
    const approved = (input.resume?.[0]?.payload as { approved?: boolean } | undefined)?.approved === true;
    return [runStarted(input), ...textMessage(`reply-${run}`, approved ? 'Deleted 3 files.' : 'Left the files alone.'), runFinished(input)];
  });
}

const followTitle = (listener: () => void) => {
  const observer = new MutationObserver(listener);
  observer.observe(document.head, { childList: true, subtree: true, characterData: true });
  return () => observer.disconnect();
};

/** The tab's title as the browser shows it, followed as it changes. */
function useDocumentTitle(): string {
  return useSyncExternalStore(
    followTitle,
    () => document.title,
    () => '',
  );
}

// The notice is on by default; nothing to pass.
const HOOK_CONFIG = { resolveDelayMs: 0 };

interface ChatProps {
  /** How long the agent thinks before its card opens. */
  delayMs: number;
}

/** The public hook inside the real v2 chat, with the tab's title shown above it. */
function ChatWithWaitingNotice({ delayMs }: ChatProps) {
  useLayoutEffect(() => {
    const before = document.title;
    document.title = PAGE_TITLE;
    return () => {
      document.title = before;
    };
  }, []);
  const title = useDocumentTitle();
  return (
    <ChatStory createAgent={() => createSlowAgent(delayMs)} config={HOOK_CONFIG} height={520}>
      <p>
        Tab title: <span data-testid="tab-title">{title}</span>
      </p>
    </ChatStory>
  );
}

const meta = {
  title: 'Integration/Waiting notice in CopilotChat',
  component: ChatWithWaitingNotice,
  args: { delayMs: 3000 },
  parameters: CHAT_STORY_PARAMETERS,
} satisfies Meta<typeof ChatWithWaitingNotice>;
export default meta;
type Story = StoryObj<typeof meta>;

/**
 * Send a message, then look at another tab within three seconds: the card opens while this tab is
 * hidden, and its title reads "(1) Waiting for you · Acme support" until the card is answered
 * (coming back to the tab is not an answer). The end-to-end test drives this story in a real,
 * headful Chromium.
 */
export const LookAwayWhileTheAgentThinks: Story = {};

/** The user watches the tab while the card opens: the title is left alone from start to end. */
export const AnsweredWhileLooking: Story = {
  args: { delayMs: 300 },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await sendMessage(canvas, 'Clean up the temp files');

    const card = await canvas.findByTestId('approval-card', {}, { timeout: 5000 });
    await expect(card).toHaveTextContent('The agent wants to delete 3 files.');
    await expect(canvas.getByTestId('tab-title')).toHaveTextContent(new RegExp(`^${PAGE_TITLE}$`));

    await userEvent.click(within(card).getByTestId('approval-approve'));
    await expect(await canvas.findByText('Deleted 3 files.', {}, { timeout: 5000 })).toBeInTheDocument();
    await expect(canvas.getByTestId('tab-title')).toHaveTextContent(new RegExp(`^${PAGE_TITLE}$`));
  },
};
