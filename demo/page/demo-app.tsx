import { CopilotChat, CopilotKitProvider, useAgent, useConfigureSuggestions } from '@copilotkit/react-core/v2';
import '@copilotkit/react-core/v2/styles.css';
import { createInterruptHistory, useInterruptRenderers } from '../../components';
import '../../components/styles.css';
import { approvalOperation } from './approvals-client';
import { useRememberedThread, useRememberThread } from './demo-thread';
import './demo.css';

// Answered cards survive a reload of the tab: the echoes come back with the thread.
const history = createInterruptHistory({ persistence: 'localStorage' });

/** The suggestion pills. The first two titles are the QA checklist's own (test/e2e/demo.e2e.test.ts asserts them). */
export const DEMO_SUGGESTIONS = [
  { title: 'Book a call with sales', message: 'Book an intro call with the sales team to discuss pricing.' },
  { title: 'Schedule a 1:1 with Alice', message: 'Schedule a 1:1 with Alice next week to review Q2 goals.' },
  { title: 'Request a deploy approval', message: 'Request approval to deploy v2 to production.' },
  { title: 'Ask me a few questions', message: 'Ask me a few questions about my project.' },
];

/** The LangGraph page's extra pill: three tool calls gated by LangChain's humanInTheLoopMiddleware. */
export const LANGGRAPH_SUGGESTIONS = [
  { title: 'Release v2 (three approvals)', message: 'Release v2: tag it, email the team and delete the release branch.' },
];

/** The agents the demo server serves: the same behaviour on two backends. */
export const DEMO_AGENTS = [
  { id: 'default', label: 'Mastra' },
  { id: 'langgraph', label: 'LangGraph' },
] as const;
export type DemoAgentId = (typeof DEMO_AGENTS)[number]['id'];

/** The agent the page talks to: `?agent=langgraph`, else the Mastra agent. */
export function agentFromLocation(search: string): DemoAgentId {
  const wanted = new URLSearchParams(search).get('agent');
  return DEMO_AGENTS.find((agent) => agent.id === wanted)?.id ?? 'default';
}

function Chat({ serverUrl, agentId }: { serverUrl: string; agentId: DemoAgentId }) {
  const { threadId, remember } = useRememberedThread(agentId);
  const { agent } = useAgent({ agentId });
  useRememberThread(agent.threadId, agent.messages.length > 0, remember);
  useConfigureSuggestions({
    suggestions: agentId === 'langgraph' ? [...DEMO_SUGGESTIONS, ...LANGGRAPH_SUGGESTIONS] : DEMO_SUGGESTIONS,
    available: 'always',
    consumerAgentId: agentId,
  });
  useInterruptRenderers({
    agentId,
    history,
    onInterruptResume: (payload, interrupt) => approvalOperation(serverUrl, payload, interrupt),
  });
  return <CopilotChat className="demo-chat" agentId={agentId} threadId={threadId} />;
}

/** Links that reload the page on the other agent (each agent keeps its own thread). */
function AgentSwitch({ current }: { current: DemoAgentId }) {
  return (
    <nav className="demo-agent-switch" aria-label="Agent backend">
      {DEMO_AGENTS.map((agent) => (
        <a key={agent.id} href={`?agent=${agent.id}`} aria-current={agent.id === current ? 'page' : undefined}>
          {agent.label}
        </a>
      ))}
    </nav>
  );
}

export interface DemoAppProps {
  /**
   * Where the demo server is. Default: the page's own origin (the server that served it).
   * Tests that render the page outside the browser pass the server's URL.
   */
  serverUrl?: string;
  /** The agent to talk to. Default: from the page's `?agent=` (the Mastra agent without one). */
  agentId?: DemoAgentId;
}

/**
 * The demo page: CopilotKit's v2 chat, full height in a centred column, talking to
 * CopilotRuntime at `/api/copilotkit`, with the library's interrupt cards.
 */
export function DemoApp({
  serverUrl = '',
  agentId = agentFromLocation(typeof window === 'undefined' ? '' : window.location.search),
}: DemoAppProps) {
  return (
    <CopilotKitProvider runtimeUrl={`${serverUrl}/api/copilotkit`} showDevConsole={false}>
      <div className="demo-shell">
        <AgentSwitch current={agentId} />
        <main className="demo-column" aria-label="copilotkit-interrupts demo chat">
          <Chat key={agentId} serverUrl={serverUrl} agentId={agentId} />
        </main>
      </div>
    </CopilotKitProvider>
  );
}
