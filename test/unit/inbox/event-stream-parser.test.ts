// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventStreamParser, type ServerSentEvent } from '../../../src/inbox/event-stream';

/** Field text: no line end (a server writes those as separate `data:` lines). */
const lineText = fc.string({ unit: fc.constantFrom('a', 'b', ' ', ':', '{', '"', 'é', '🙂'), maxLength: 12 });
const event = fc.record({
  event: fc.constantFrom('inbox', 'problem', 'thread', 'message'),
  lines: fc.array(lineText, { minLength: 1, maxLength: 3 }),
});
const lineEnd = fc.constantFrom('\n', '\r\n', '\r');

/** A stream as a server may write it: comments and `retry:` between events, any line end. */
const written = fc.record({
  events: fc.array(event, { maxLength: 8 }),
  end: lineEnd,
  comments: fc.array(fc.boolean(), { maxLength: 8 }),
  retry: fc.option(fc.nat({ max: 60_000 }), { nil: undefined }),
});

interface Written {
  events: Array<{ event: string; lines: string[] }>;
  end: string;
  comments: boolean[];
  retry: number | undefined;
}

function write({ events, end, comments, retry }: Written): string {
  let text = retry === undefined ? '' : `retry: ${retry}${end}${end}`;
  events.forEach((item, index) => {
    if (comments[index]) text += `: keep-alive${end}${end}`;
    text += `event: ${item.event}${end}`;
    for (const line of item.lines) text += `data: ${line}${end}`;
    text += end;
  });
  return text;
}

/** `text` cut at the given places (sorted, deduplicated), as network chunks arrive. */
const cut = (text: string, at: number[]) => {
  const places = [...new Set(at.map((n) => n % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let from = 0;
  for (const place of places) {
    chunks.push(text.slice(from, place));
    from = place;
  }
  chunks.push(text.slice(from));
  return chunks;
};

describe('EventStreamParser', () => {
  it('given any stream cut into any chunks, should read each event once, in order, with its data lines joined, and the retry', () => {
    fc.assert(
      fc.property(written, fc.array(fc.nat(), { maxLength: 20 }), (stream, at) => {
        const parser = new EventStreamParser();
        const read: ServerSentEvent[] = cut(write(stream), at).flatMap((chunk) => parser.push(chunk));
        expect(read).toEqual(stream.events.map((item) => ({ event: item.event, data: item.lines.join('\n') })));
        expect(parser.retryMs).toBe(stream.retry);
      }),
    );
  });

  it('given an event without data, should dispatch nothing for it; a bare `data` line should be empty data; an unknown field or a bad retry should be ignored', () => {
    const parser = new EventStreamParser();
    const read = parser.push('event: inbox\n\ndata\nfoo: bar\nretry: soon\n\nevent: problem\ndata:{"error":"x"}\n\n');
    expect(read).toEqual([
      { event: 'message', data: '' },
      { event: 'problem', data: '{"error":"x"}' },
    ]);
    expect(parser.retryMs).toBeUndefined();
  });

  it('given an event not yet ended by a blank line, should hold it until the blank line comes', () => {
    const parser = new EventStreamParser();
    expect(parser.push('event: inbox\ndata: {"interrupts":[]}\r')).toEqual([]);
    expect(parser.push('\n')).toEqual([]);
    expect(parser.push('\r')).toEqual([{ event: 'inbox', data: '{"interrupts":[]}' }]);
    // The LF of that CRLF, in the next chunk, is no second blank line.
    expect(parser.push('\nevent: problem\ndata: x\n\n')).toEqual([{ event: 'problem', data: 'x' }]);
  });
});
