import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import '@copilotkit/react-core/v2/styles.css';
import { useState, type ReactNode } from 'react';
import type { AbstractAgent } from '@ag-ui/client';
import { expect, userEvent, waitFor, type within } from 'storybook/test';
import { useInterruptRenderers } from '../../components/interrupt-renderers';
import type { InterruptRenderersConfig } from '../../hooks/types';

/** The `parameters` every chat story shares. */
export const CHAT_STORY_PARAMETERS = {
  layout: 'fullscreen',
  // CopilotKit 1.74's own icon-only "add" menu and send buttons have no accessible name (axe:
  // button-name). They are not ours to fix; everything else in the chat, our card included, is checked.
  a11y: { context: { exclude: ['[data-testid="copilot-add-menu-button"]', '[data-testid="copilot-send-button"]'] } },
};

function Interrupts({ config }: { config?: InterruptRenderersConfig }) {
  return useInterruptRenderers(config);
}

export interface ChatStoryProps {
  /** Makes the story's agent; called once, when the story mounts. */
  createAgent: () => AbstractAgent;
  /** The public hook's options, as an app would pass them. */
  config?: InterruptRenderersConfig;
  /** The chat's height in pixels. */
  height: number;
  /** Shown above the chat. */
  children?: ReactNode;
}

/** The public hook inside the real v2 chat, the way an app wires it, talking to one agent. */
export function ChatStory({ createAgent, config, height, children }: ChatStoryProps) {
  const [agent] = useState(createAgent);
  return (
    <CopilotKitProvider agents__unsafe_dev_only={{ default: agent }}>
      <Interrupts config={config} />
      {children}
      <div style={{ height, maxWidth: 720 }}>
        <CopilotChat />
      </div>
    </CopilotKitProvider>
  );
}

/** Types a message into the chat and sends it, as a user would. */
export async function sendMessage(canvas: ReturnType<typeof within>, text: string) {
  await userEvent.type(await canvas.findByTestId('copilot-chat-textarea'), text);
  await waitFor(() => expect(canvas.getByTestId('copilot-send-button')).toBeEnabled());
  await userEvent.click(canvas.getByTestId('copilot-send-button'));
}
