import { Server } from 'node:http';
import { Client } from '@langchain/langgraph-sdk';
import { END, MessagesValue, START, StateGraph, StateSchema } from '@langchain/langgraph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveGraphs, type ServedGraphs } from '../../../demo/server/langgraph-server';

// The in-process LangGraph server and its clients share one event loop. Node's server drops a
// connection left idle for 6 s; the client stops reusing one after 3 s, by its own timer (which
// starts counting only once the loop is free again). When the loop is busy (a loaded machine, a long render), both timers come due
// together, the server's first: a request sent right then goes out on a connection the server has
// just closed and fails with "fetch failed" (the cause: "other side closed" or ECONNRESET). The
// LangGraph SDK does not send a POST again (it may have started a run), so the user would see
// "Unable to connect to LangGraph server".

/** Holds the whole thread (server and client alike) for `ms`, as a busy event loop does. */
const busy = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(0, ms));
/**
 * When Node's HTTP server drops an idle connection, with the defaults @langchain/langgraph-api's
 * server has: its `keepAliveTimeout` (5 s) and a buffer, 1 s (fixed in Node 20, a setting later).
 * The client (undici) stops reusing it 2 s before the `Keep-Alive: timeout=5` the server announces.
 */
const defaults = new Server() as Server & { keepAliveTimeoutBuffer?: number };
const SERVER_DROPS_AFTER = defaults.keepAliveTimeout + (defaults.keepAliveTimeoutBuffer ?? 1_000);

let served: ServedGraphs;
beforeAll(async () => {
  const State = new StateSchema({ messages: MessagesValue });
  const graph = new StateGraph(State)
    .addNode('idle', () => ({}))
    .addEdge(START, 'idle')
    .addEdge('idle', END)
    .compile();
  served = await serveGraphs({ idle: graph });
}, 60_000);
afterAll(async () => {
  await served?.close();
});

describe('the in-process LangGraph server under a busy event loop', () => {
  it("given the loop busy as a connection's keep-alive time runs out, a POST made right then should reach the server", async () => {
    // As CopilotKit's LangGraphAgent makes its client: the SDK's own, by URL.
    const client = new Client({ apiUrl: served.url });
    const threadIds: string[] = [];
    for (let round = 0; round < 2; round++) {
      const { thread_id } = await client.threads.create();
      threadIds.push(thread_id);
      const idleSince = Date.now();
      // Busy just as the connection goes idle, and again across the moment the server drops it.
      busy(SERVER_DROPS_AFTER - 2_500);
      const created = await new Promise<unknown>((resolve) => {
        setTimeout(() => busy(idleSince + SERVER_DROPS_AFTER + 150 - Date.now()), idleSince + SERVER_DROPS_AFTER - 1_500 - Date.now());
        // A timer due just after the server's: the POST goes out before the client reads the close.
        setTimeout(() => resolve(client.threads.create().catch((error: Error) => error)), idleSince + SERVER_DROPS_AFTER + 50 - Date.now());
      });
      expect(created).not.toBeInstanceOf(Error);
      threadIds.push((created as { thread_id: string }).thread_id);
    }
    // Every thread was created on the server, once.
    expect(new Set(threadIds).size).toBe(4);
    for (const threadId of threadIds) expect((await client.threads.get(threadId)).thread_id).toBe(threadId);
  }, 60_000);
});
