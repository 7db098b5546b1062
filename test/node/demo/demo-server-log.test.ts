import { AbstractAgent, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import { CopilotRuntime, createCopilotRuntimeHandler } from '@copilotkit/runtime/v2';
import { Observable } from 'rxjs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { endStreamsOnDisconnect } from '../../../demo/server/end-streams-on-disconnect';

// A client that leaves while CopilotRuntime still streams its run: the runtime clones every
// response for its afterRequestMiddleware and never reads the clone, so the events it is still
// writing wait on that clone; once the clone is garbage collected, each write fails and is logged
// as "Error running agent: [ undefined, 'Response object has been garbage collected' ]". The demo
// server's onResponse hook ends the stream with the request.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Streams RUN_STARTED, then, once released, `count` text events at once (faster than a client reads). */
class BurstAgent extends AbstractAgent {
  static release: () => void = () => undefined;
  constructor(private readonly count: number) {
    super();
  }
  run(input: RunAgentInput): Observable<BaseEvent> {
    return new Observable((subscriber) => {
      const { threadId, runId } = input;
      subscriber.next({ type: 'RUN_STARTED', threadId, runId } as BaseEvent);
      BurstAgent.release = () => {
        subscriber.next({ type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' } as BaseEvent);
        for (let n = 0; n < this.count; n++) subscriber.next({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: `${n} ` } as BaseEvent);
        subscriber.next({ type: 'TEXT_MESSAGE_END', messageId: 'm' } as BaseEvent);
        subscriber.next({ type: 'RUN_FINISHED', threadId, runId } as BaseEvent);
        subscriber.complete();
      };
    });
  }
  override clone(): BurstAgent {
    return new BurstAgent(this.count);
  }
}

/** One run through the runtime's fetch handler whose client reads the first event, then leaves mid-stream. */
async function leaveMidStream(count: number, hooks?: { onResponse: typeof endStreamsOnDisconnect }) {
  const runtime = new CopilotRuntime({ agents: { burst: new BurstAgent(count) } as never });
  const handler = createCopilotRuntimeHandler({ runtime, basePath: '/api', cors: true, ...(hooks ? { hooks } : {}) });
  const client = new AbortController();
  const input = { threadId: 't', runId: crypto.randomUUID(), messages: [], tools: [], context: [], state: {}, forwardedProps: {} };
  const response = await handler(
    new Request('http://localhost/api/agent/burst/run', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(input),
      signal: client.signal,
    }),
  );
  const reader = response.body!.getReader();
  await reader.read();
  BurstAgent.release();
  // What a Node server does when the socket closes: cancel the body and abort the request. The
  // body is one branch of a tee whose other branch, the runtime's unread clone, lets the cancel
  // settle only once it is garbage collected: collected here at once, not when V8 gets to it.
  const collecting = setInterval(gc, 20);
  try {
    await reader.cancel();
  } finally {
    clearInterval(collecting);
  }
  client.abort();
}

const agentErrors = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.filter(([first]) => first === 'Error running agent:');

afterEach(() => vi.restoreAllMocks());

describe('the demo runtime: a client that leaves mid-stream', () => {
  it('leaves no error in the server log, where the runtime as it comes logs one per event still being written', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await leaveMidStream(40, { onResponse: endStreamsOnDisconnect });
    // The same run without the hook, after it: once its clone is collected and its writes failed,
    // the first one's clone (older, as unreachable) has been collected too.
    await leaveMidStream(3);
    await expect
      .poll(
        () => {
          gc();
          return agentErrors(errors).length;
        },
        { timeout: 30_000, interval: 50 },
      )
      .toBeGreaterThan(0);
    expect(String(agentErrors(errors)[0][1])).toContain('Response object has been garbage collected');
    // Only the unhooked run's own writes (its three events and the message's start, end and run's finish).
    expect(agentErrors(errors).length).toBeLessThanOrEqual(6);
  }, 60_000);
});
