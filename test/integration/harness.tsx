import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import { StrictMode, type ReactNode } from 'react';
import { useInterruptRenderersWith } from '../../components/host/use-interrupt-renderers-with';
import type { InterruptRenderersConfig } from '../../hooks/types';
import type { AnyInterruptRenderer, InterruptRendererProps } from '../../hooks/renderer-props';
import type { ScriptedAgent } from '../helpers/scripted-agent';

/** The hook under test with no built-in cards: tests register their own small renderers. */
export function Interrupts(props: InterruptRenderersConfig & { defaults?: Record<string, AnyInterruptRenderer> }) {
  const { defaults, ...config } = props;
  useInterruptRenderersWith(config, { renderers: defaults ?? {} });
  return null;
}

export interface ChatOptions {
  agent: ScriptedAgent;
  /** The hook's config; `defaults` are the built-in cards to use (none unless given). */
  config?: InterruptRenderersConfig & { defaults?: Record<string, AnyInterruptRenderer> };
  threadId?: string;
  children?: ReactNode;
  /** Wrap in React.StrictMode (double effects and renders in development). */
  strict?: boolean;
}

/** The real provider and v2 chat, with the hook mounted before the chat (as docs/hook.md says). */
export function Chat({ agent, config, threadId }: ChatOptions) {
  return (
    <CopilotKitProvider agents__unsafe_dev_only={{ default: agent }}>
      <Interrupts {...config} />
      <div style={{ height: 600 }}>
        <CopilotChat threadId={threadId} />
      </div>
    </CopilotKitProvider>
  );
}

export function renderChat(options: ChatOptions) {
  return render(
    options.strict ? (
      <StrictMode>
        <Chat {...options} />
      </StrictMode>
    ) : (
      <Chat {...options} />
    ),
  );
}

/** Type into the chat (the one inside `scope`, when the page has several) and send, as a user would. */
export async function sendMessage(text: string, scope?: HTMLElement) {
  const queries = scope ? within(scope) : screen;
  const textarea = await queries.findByTestId('copilot-chat-textarea');
  fireEvent.change(textarea, { target: { value: text } });
  // The chat enables sending once it has reached its agent (over HTTP, the runtime's `/info`, which
  // takes a moment under load), and disables it again while it connects to the thread. A click the
  // chat did not take leaves the text in the box: the user clicks again once the button is back.
  // A click it took empties the box at once, so a message is never sent twice.
  await waitFor(
    async () => {
      const button = queries.getByTestId('copilot-send-button');
      expect(button).not.toBeDisabled();
      if ((textarea as HTMLTextAreaElement).value) await act(async () => void fireEvent.click(button));
      expect(textarea).toHaveValue('');
    },
    { timeout: 10_000 },
  );
}

/** A tiny card for tests: shows status, the payload it was given, and answer buttons. */
export function makeTestCard(testId: string, answer: unknown = { ok: true }): AnyInterruptRenderer {
  function TestCard({ interrupt, status, result, error, resolve, cancel, retry, readOnly }: InterruptRendererProps<any>) {
    return (
      <div data-testid={readOnly ? `${testId}-readonly` : testId} data-status={status}>
        <span data-testid={`${testId}-payload`}>{JSON.stringify(interrupt.payload)}</span>
        <span>status: {status}</span>
        {result !== undefined ? <span data-testid={`${testId}-result`}>{JSON.stringify(result)}</span> : null}
        {error ? <span role="alert">{error}</span> : null}
        <button type="button" disabled={readOnly} onClick={() => resolve(answer)}>
          Answer {testId}
        </button>
        <button type="button" disabled={readOnly} onClick={cancel}>
          Cancel {testId}
        </button>
        {status === 'error' && retry ? (
          <button type="button" onClick={retry}>
            Retry {testId}
          </button>
        ) : null}
      </div>
    );
  }
  return TestCard;
}

/** The message list element (the transcript). */
export const transcript = () => screen.getByTestId('copilot-message-list');
