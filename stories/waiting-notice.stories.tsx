import type { Meta, StoryObj } from '@storybook/react-vite';
import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import '@copilotkit/react-core/v2/styles.css';
import { useLayoutEffect, useState, useSyncExternalStore } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { useInterruptRenderers } from '../components/interrupt-renderers';
import { interruptOutcome, runFinished, runStarted, ScriptedAgent, textMessage } from '../test/helpers/scripted-agent';
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

function Interrupts() {
  // The notice is on by default; nothing to pass.
  return useInterruptRenderers({ resolveDelayMs: 0 });
}

interface ChatProps {
  /** How long the agent thinks before its card opens. */
  delayMs: number;
}

/** The public hook inside the real v2 chat, with the tab's title shown above it. */
function ChatWithWaitingNotice({ delayMs }: ChatProps) {
  const [agent] = useState(() => createSlowAgent(delayMs));
  useLayoutEffect(() => {
    const before = document.title;
    document.title = PAGE_TITLE;
    return () => {
      document.title = before;
    };
  }, []);
  const title = useDocumentTitle();
  return (
    <CopilotKitProvider agents__unsafe_dev_only={{ default: agent }}>
      <Interrupts />
      <p>
        Tab title: <span data-testid="tab-title">{title}</span>
      </p>
      <div style={{ height: 520, maxWidth: 720 }}>
        <CopilotChat />
      </div>
    </CopilotKitProvider>
  );
}

const meta = {
  title: 'Integration/Waiting notice in CopilotChat',
  component: ChatWithWaitingNotice,
  args: { delayMs: 3000 },
  parameters: {
    layout: 'fullscreen',
    // CopilotKit 1.74's own icon-only "add" menu and send buttons have no accessible name (axe:
    // button-name). They are not ours to fix; everything else in the chat, our card included, is checked.
    a11y: { context: { exclude: ['[data-testid="copilot-add-menu-button"]', '[data-testid="copilot-send-button"]'] } },
  },
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
    await userEvent.type(await canvas.findByTestId('copilot-chat-textarea'), 'Clean up the temp files');
    await waitFor(() => expect(canvas.getByTestId('copilot-send-button')).toBeEnabled());
    await userEvent.click(canvas.getByTestId('copilot-send-button'));

    const card = await canvas.findByTestId('approval-card', {}, { timeout: 5000 });
    await expect(card).toHaveTextContent('The agent wants to delete 3 files.');
    await expect(canvas.getByTestId('tab-title')).toHaveTextContent(new RegExp(`^${PAGE_TITLE}$`));

    await userEvent.click(within(card).getByTestId('approval-approve'));
    await expect(await canvas.findByText('Deleted 3 files.', {}, { timeout: 5000 })).toBeInTheDocument();
    await expect(canvas.getByTestId('tab-title')).toHaveTextContent(new RegExp(`^${PAGE_TITLE}$`));
  },
};
