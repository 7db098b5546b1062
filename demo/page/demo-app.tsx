import { CopilotChat, CopilotKitProvider, useAgent, useConfigureSuggestions } from '@copilotkit/react-core/v2';
import '@copilotkit/react-core/v2/styles.css';
import { createInterruptHistory, useInterruptRenderers } from '../../components';
import '../../components/styles.css';
import { approvalOperation } from './approvals-client';
import { useRememberedThread, useRememberThread } from './demo-thread';
import './demo.css';

// Answered cards survive a reload of the tab: the echoes come back with the thread.
const history = createInterruptHistory({ persistence: 'localStorage' });

/** The suggestion pills. The first two titles are verbatim from the seed's QA checklist. */
export const DEMO_SUGGESTIONS = [
  { title: 'Book a call with sales', message: 'Book an intro call with the sales team to discuss pricing.' },
  { title: 'Schedule a 1:1 with Alice', message: 'Schedule a 1:1 with Alice next week to review Q2 goals.' },
  { title: 'Request a deploy approval', message: 'Request approval to deploy v2 to production.' },
  { title: 'Ask me a few questions', message: 'Ask me a few questions about my project.' },
];

function Chat({ serverUrl }: { serverUrl: string }) {
  const { threadId, remember } = useRememberedThread();
  const { agent } = useAgent();
  useRememberThread(agent.threadId, agent.messages.length > 0, remember);
  useConfigureSuggestions({ suggestions: DEMO_SUGGESTIONS, available: 'always' });
  useInterruptRenderers({
    history,
    onInterruptResume: (payload, interrupt) => approvalOperation(serverUrl, payload, interrupt),
  });
  return <CopilotChat className="demo-chat" threadId={threadId} />;
}

export interface DemoAppProps {
  /**
   * Where the demo server is. Default: the page's own origin (the server that served it).
   * Tests that render the page outside the browser pass the server's URL.
   */
  serverUrl?: string;
}

/**
 * The demo page: CopilotKit's v2 chat, full height in a centred column, talking to
 * CopilotRuntime at `/api/copilotkit`, with the library's interrupt cards.
 */
export function DemoApp({ serverUrl = '' }: DemoAppProps) {
  return (
    <CopilotKitProvider runtimeUrl={`${serverUrl}/api/copilotkit`} showDevConsole={false}>
      <div className="demo-shell">
        <main className="demo-column" aria-label="copilotkit-interrupts demo chat">
          <Chat serverUrl={serverUrl} />
        </main>
      </div>
    </CopilotKitProvider>
  );
}
