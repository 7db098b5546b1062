import { HttpAgent, type BaseEvent } from '@ag-ui/client';

/**
 * A client of a served CopilotRuntime's agent `default` on `threadId`, as the person whose bearer
 * token is `token`: `run` starts runs (and resumes), `connect` replays the thread.
 */
export const clientAs = (runtimeUrl: string, threadId: string, token: string, path: 'run' | 'connect') =>
  new HttpAgent({
    url: `${runtimeUrl}/agent/default/${path}`,
    threadId,
    agentId: 'default',
    headers: { authorization: `Bearer ${token}` },
  });

/** Runs `client` once and returns every event it saw; a refusal ends the list, it does not throw. */
export async function eventsOf(client: HttpAgent, parameters: Record<string, unknown> = {}): Promise<BaseEvent[]> {
  const events: BaseEvent[] = [];
  await client.runAgent(parameters as never, { onEvent: ({ event }) => void events.push(event) }).catch(() => {});
  return events;
}
