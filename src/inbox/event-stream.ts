/**
 * Server-sent events read with `fetch` and a streaming body, framework-free: unlike `EventSource`,
 * it sends the caller's headers and credentials, tells a response that is not a stream (a JSON
 * answer, an error status) from one that is, and leaves reconnecting to its caller.
 */

/** One event of a `text/event-stream` body. */
export interface ServerSentEvent {
  /** The `event:` field; `message` when there was none. */
  event: string;
  /** The `data:` lines, joined with `\n`. */
  data: string;
}

/**
 * Reads a `text/event-stream` body as it arrives, in chunks cut anywhere: fields (`event`, `data`,
 * `retry`; others ignored), comments (`:` lines), line ends LF, CRLF or CR. An event is dispatched
 * at a blank line when it has data, as `EventSource` does.
 */
export class EventStreamParser {
  #buffer = '';
  #afterCR = false;
  #event = '';
  #data: string[] = [];
  #retryMs: number | undefined;

  /** The last `retry:` the server sent (ms): how long it asks a client to wait before it reconnects. */
  get retryMs(): number | undefined {
    return this.#retryMs;
  }

  /** The events completed by `text` (the next chunk of the body). */
  push(text: string): ServerSentEvent[] {
    if (text === '') return [];
    // A chunk that ended with a CR ended a line; an LF starting this one is the rest of that CRLF.
    this.#buffer += this.#afterCR && text.startsWith('\n') ? text.slice(1) : text;
    this.#afterCR = false;
    const events: ServerSentEvent[] = [];
    for (;;) {
      const end = /\r\n|\r|\n/.exec(this.#buffer);
      if (!end) break;
      const line = this.#buffer.slice(0, end.index);
      this.#buffer = this.#buffer.slice(end.index + end[0].length);
      if (end[0] === '\r' && this.#buffer === '') this.#afterCR = true;
      const event = this.#line(line);
      if (event) events.push(event);
    }
    return events;
  }

  #line(line: string): ServerSentEvent | undefined {
    if (line === '') {
      const event = this.#data.length > 0 ? { event: this.#event || 'message', data: this.#data.join('\n') } : undefined;
      this.#event = '';
      this.#data = [];
      return event;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const raw = colon < 0 ? '' : line.slice(colon + 1);
    const value = raw.startsWith(' ') ? raw.slice(1) : raw;
    if (field === 'event') this.#event = value;
    else if (field === 'data') this.#data.push(value);
    else if (field === 'retry' && /^\d+$/.test(value)) this.#retryMs = Number(value);
    return undefined;
  }
}

/** How a stream request ended. */
export type EventStreamEnd =
  /** The endpoint answered something else than a stream (JSON, an error status): the caller reads it. */
  | { kind: 'answered'; response: Response }
  /** The request failed before any answer (network down, CORS, a bad URL). */
  | { kind: 'unreachable'; error: unknown }
  /** The stream was open, then ended or broke (a restart, a proxy's timeout): reconnect. */
  | { kind: 'ended'; retryMs: number | undefined }
  /** `signal` aborted it. */
  | { kind: 'stopped' };

const isEventStream = (response: Response) => (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');

/**
 * Opens `url` with `Accept: text/event-stream` (over `init`'s other headers and options) and calls
 * `onEvent` for each event until the stream ends or `signal` aborts. Never rejects.
 */
export async function readEventStream(
  url: string,
  init: RequestInit | undefined,
  signal: AbortSignal,
  onEvent: (event: ServerSentEvent) => void,
): Promise<EventStreamEnd> {
  const headers = new Headers(init?.headers);
  headers.set('accept', 'text/event-stream');
  let response: Response;
  try {
    response = await fetch(url, { ...init, method: 'GET', headers, signal });
  } catch (error) {
    return signal.aborted ? { kind: 'stopped' } : { kind: 'unreachable', error };
  }
  if (!response.ok || !isEventStream(response) || !response.body) return { kind: 'answered', response };
  const parser = new EventStreamParser();
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || signal.aborted) break;
      for (const event of parser.push(decoder.decode(value, { stream: true }))) {
        if (signal.aborted) break;
        onEvent(event);
      }
    }
  } catch {
    // A broken stream ends like a closed one: the caller reconnects.
  } finally {
    reader.cancel().catch(() => {});
  }
  return signal.aborted ? { kind: 'stopped' } : { kind: 'ended', retryMs: parser.retryMs };
}
