import { CopilotChat, CopilotKitProvider, useAgent, useConfigureSuggestions } from '@copilotkit/react-core/v2';
import '@copilotkit/react-core/v2/styles.css';
import { useCallback, useState } from 'react';
import { createInterruptHistory, PendingInterruptsList, useInterruptRenderers, usePendingInterrupts } from '../../components';
import '../../components/styles.css';
import { approvalOperation } from './approvals-client';
import { useRememberedThread, useRememberThread } from './demo-thread';
import { DemoUserSwitch, useDemoUser, type DemoUserState } from './demo-user';
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

/** How often the demo's inbox checks while its live stream is down (the hook's default is 15 s; a focus or a return to the tab checks at once). */
export const DEMO_INBOX_POLL_MS = 2_000;

interface ChatProps {
  serverUrl: string;
  agentId: DemoAgentId;
  /** The thread to show; undefined: a new one (CopilotKit mints its id). */
  threadId: string | undefined;
  /** Told the thread's id once the conversation has a message. */
  onStarted: (threadId: string) => void;
}

function Chat({ serverUrl, agentId, threadId, onStarted }: ChatProps) {
  const { agent } = useAgent({ agentId });
  // Until the chat has bound the thread it was given, the agent may still hold the previous one.
  const bound = threadId === undefined || agent.threadId === threadId;
  useRememberThread(agent.threadId, bound && agent.messages.length > 0, onStarted);
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

/**
 * The chat and, beside it, the inbox: the threads that wait for the user (from the demo server's
 * `/api/inbox`, the durable runner's rows). Picking one switches the chat to it; "New conversation"
 * starts a fresh thread.
 */
function Workspace({ serverUrl, agentId, people }: { serverUrl: string; agentId: DemoAgentId; people: DemoUserState }) {
  // Each demo user remembers their own thread in the tab (the first user's key is the one before users).
  const userKey = people.status === 'known' && people.user.id !== people.users[0]?.id ? people.user.id : '';
  const { threadId: remembered, remember } = useRememberedThread(agentId, userKey);
  // The thread the chat is keyed on; a fresh tab's first thread gets its id from CopilotKit when it starts.
  const [selected, setSelected] = useState(remembered);
  const [minted, setMinted] = useState<string>();
  // Only this page's agent's threads: a LangGraph thread picked on the Mastra page could not be answered there.
  const inbox = usePendingInterrupts({ url: `${serverUrl}/api/inbox`, agentId, pollIntervalMs: DEMO_INBOX_POLL_MS });
  const open = (threadId: string | undefined) => {
    if (threadId) remember(threadId);
    setSelected(threadId ?? crypto.randomUUID());
  };
  const started = useCallback(
    (threadId: string) => {
      remember(threadId);
      setMinted(threadId);
    },
    [remember],
  );
  return (
    <>
      <aside className="demo-inbox" aria-label="Conversations">
        {people.status === 'known' ? <DemoUserSwitch current={people.user} users={people.users} cookie={people.cookie} /> : null}
        <PendingInterruptsList
          threads={inbox.threads}
          error={inbox.error}
          loading={inbox.loading}
          onRetry={() => void inbox.refresh()}
          currentThreadId={selected ?? minted}
          onSelect={open}
        />
        <button type="button" className="demo-new-thread" onClick={() => open(undefined)}>
          New conversation
        </button>
      </aside>
      <main className="demo-column" aria-label="copilotkit-interrupts demo chat">
        <Chat key={selected ?? 'new'} serverUrl={serverUrl} agentId={agentId} threadId={selected} onStarted={started} />
      </main>
    </>
  );
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
 * CopilotRuntime at `/api/copilotkit`, with the library's interrupt cards, and beside it who you
 * are (the demo user switcher) and the inbox.
 */
export function DemoApp({
  serverUrl = '',
  agentId = agentFromLocation(typeof window === 'undefined' ? '' : window.location.search),
}: DemoAppProps) {
  // Who this browser is (the demo's cookie; Ana without one). Until the server says, nothing talks
  // to the runtime; a cookie that names no demo user gets the server's refusal and a switcher.
  const people = useDemoUser(serverUrl);
  if (people.status === 'loading') return <div className="demo-shell" aria-busy="true" />;
  if (people.status === 'unknown') {
    return (
      <div className="demo-shell">
        <main className="demo-refused" aria-label="copilotkit-interrupts demo">
          <p role="alert">{people.message}</p>
          <DemoUserSwitch current={undefined} users={people.users} cookie={people.cookie} />
        </main>
      </div>
    );
  }
  return (
    <CopilotKitProvider runtimeUrl={`${serverUrl}/api/copilotkit`} showDevConsole={false}>
      <div className="demo-shell">
        <AgentSwitch current={agentId} />
        <Workspace key={agentId} serverUrl={serverUrl} agentId={agentId} people={people} />
      </div>
    </CopilotKitProvider>
  );
}
