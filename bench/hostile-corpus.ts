/**
 * Figure 6, hostile input: `unwrapInterrupts` on each input of a corpus built to make unwrapping
 * slow (deep, wide, shared references, sparse and typed arrays, boxed strings, 1,000 interrupts
 * sharing one large object, and legacy JSON strings of the same). The figure is the slowest input's
 * median time; the caps of `UNWRAP_LIMITS` (which hold for the whole interrupt set) bound it.
 */
import { performance } from 'node:perf_hooks';
import { UNWRAP_LIMITS, unwrapInterrupts, type InterruptRenderInput } from '../src/unwrap';
import { median } from './stats';

export interface HostileResult {
  /** The slowest input's name and its median milliseconds. */
  slowest: string;
  slowestMs: number;
  /** Median milliseconds per input. */
  perInput: Record<string, number>;
  rounds: number;
}

/** `depth` levels of `{a, b}` where both keys hold the same object: 2^depth paths through `depth` objects. */
function sharedTree(depth: number): unknown {
  let node: unknown = { leaf: 1 };
  for (let i = 0; i < depth; i++) node = { a: node, b: node };
  return node;
}

function deep(depth: number): unknown {
  let node: unknown = 'leaf';
  for (let i = 0; i < depth; i++) node = { x: node };
  return node;
}

/**
 * The widest object that fits under the parse limit (about 35,000 keys in 500 kB of JSON), as text
 * and as the object `JSON.parse` makes of it: interrupts reach the renderers decoded from JSON.
 * (An object built key by key in JavaScript with hundreds of thousands of keys is a dictionary
 * whose `Object.keys` alone costs ~100 ms on this machine; any reader pays that, so it is not in
 * the corpus. The caps bound everything after the keys are listed.)
 */
function wideJson(): string {
  const entries: string[] = [];
  let length = 0;
  for (let i = 0; length < UNWRAP_LIMITS.maxJsonLength - 100; i++) {
    const entry = `"k${i}":${i}`;
    entries.push(entry);
    length += entry.length + 1;
  }
  return `{"id":"w","reason":"x:y","metadata":{${entries.join(',')}}}`;
}
const wideText = wideJson();
const bigShared = { items: Array.from({ length: 100_000 }, (_, i) => ({ i })) };

/** Each entry: a name and the render props CopilotKit could hand the renderers. */
export const HOSTILE_CORPUS: ReadonlyArray<[string, InterruptRenderInput]> = [
  ['deep object (100,000 levels)', { interrupt: deep(100_000) }],
  [
    'deep legacy JSON string (80,000 levels)',
    { event: { name: 'on_interrupt', value: `${'{"x":'.repeat(80_000)}1${'}'.repeat(80_000)}` } },
  ],
  ['wide JSON string (500 kB, 35,000 keys)', { interrupt: wideText }],
  ['wide object (35,000 keys, from JSON)', { interrupt: JSON.parse(wideText) }],
  [
    'wide list (1,000,000 items)',
    { interrupt: { id: 'l', reason: 'x:y', metadata: { list: Array.from({ length: 1_000_000 }, (_, i) => i) } } },
  ],
  ['shared references (2^40 paths)', { interrupt: [sharedTree(40)] }],
  ['sparse list (length 2^32 - 1)', { interrupt: new Array(2 ** 32 - 1) }],
  ['typed array (16 MB)', { interrupt: { id: 't', reason: 'x:y', metadata: { bytes: new Uint8Array(16 * 1024 * 1024) } } }],
  ['boxed string (4 MB)', { interrupt: { id: 'b', reason: 'x:y', metadata: { text: new String('x'.repeat(4 * 1024 * 1024)) } } }],
  [
    '1,000 interrupts sharing one large object',
    { interrupts: Array.from({ length: 1_000 }, (_, i) => ({ id: `i${i}`, reason: 'x:y', metadata: { bigShared } })) },
  ],
  [
    '1,000 JSON strings just under the parse limit',
    {
      interrupts: Array.from({ length: 1_000 }, (_, i) =>
        JSON.stringify({ id: `s${i}`, reason: 'x:y', pad: 'x'.repeat(UNWRAP_LIMITS.maxJsonLength - 100) }),
      ),
    },
  ],
];

let sink: unknown;

export function measureHostileCorpus(rounds = 5): HostileResult {
  const perInput: Record<string, number> = {};
  for (const [name, input] of HOSTILE_CORPUS) {
    sink = unwrapInterrupts(input); // warm-up
    const times: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const start = performance.now();
      sink = unwrapInterrupts(input);
      times.push(performance.now() - start);
    }
    perInput[name] = median(times);
  }
  if (sink === undefined) throw new Error('unreachable');
  const [slowest, slowestMs] = Object.entries(perInput).sort((a, b) => b[1] - a[1])[0];
  return { slowest, slowestMs, perInput, rounds };
}
