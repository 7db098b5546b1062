import { EventStreamParser } from '../../src/inbox/event-stream';

/** One server-sent event, its data read as JSON. */
export type StreamedEvent = { event: string; data: unknown };

/**
 * Opens `url` as EventSource does (`Accept: text/event-stream`, plus `headers`) and collects its
 * events as they come, until `close()`. The response is there to check its status and headers.
 */
export async function listenToEventStream(url: string, headers: Record<string, string> = {}) {
  const aborted = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: aborted.signal });
  const events: StreamedEvent[] = [];
  const reading = (async () => {
    const parser = new EventStreamParser();
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        for (const { event, data } of parser.push(value)) events.push({ event, data: JSON.parse(data) as unknown });
      }
    } catch {
      // closed by the test
    }
  })();
  return {
    response,
    events,
    close: async () => {
      aborted.abort();
      await reading;
    },
  };
}
