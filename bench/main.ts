/**
 * `npm run bench`: every figure next to its baseline, in one run on one machine.
 * Flags: `--json` (print JSON instead of the table), `--only size,unwrap,browser`.
 */
import { execFileSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { formatTable, ratioOf, type BenchRow } from './report';
import { measureSizes, SIZE_BUDGETS } from './size';
import { measureUnwrapThroughput } from './unwrap-throughput';

const args = process.argv.slice(2);
const json = args.includes('--json');
const onlyArg = args.find((arg) => arg.startsWith('--only'));
const only = onlyArg ? (onlyArg.includes('=') ? onlyArg.split('=')[1] : args[args.indexOf(onlyArg) + 1]).split(',') : undefined;
const wants = (name: string) => !only || only.includes(name);
const log = (message: string) => {
  if (!json) process.stderr.write(`${message}\n`);
};

/** Unwrap: per call, ours may cost this many times a bare JSON.parse (it also validates and sanitises). */
export const UNWRAP_MAX_RATIO = 3;

async function sizeRows(): Promise<BenchRow[]> {
  const sizes = await measureSizes();
  const main = sizes.find((size) => size.entry === '.');
  return sizes.map((size) => {
    if (size.budget !== undefined) {
      return {
        figure: `size ${size.entry} (min+gz)`,
        ours: size.gzipped,
        baseline: size.budget,
        unit: 'B',
        ratio: ratioOf(size.gzipped, size.budget),
        target: `<= budget ${size.budget} B`,
        pass: size.gzipped <= size.budget,
        samples: '1 (deterministic)',
        note: undefined,
      };
    }
    if (size.entry.startsWith('. {') && main) {
      return {
        figure: `size ${size.entry}`,
        ours: size.gzipped,
        baseline: main.gzipped,
        unit: 'B',
        ratio: ratioOf(size.gzipped, main.gzipped),
        target: '< whole "." entry',
        pass: size.gzipped < main.gzipped,
        samples: '1 (deterministic)',
        note: undefined,
      };
    }
    return {
      figure: `size ${size.entry} (min+gz)`,
      ours: size.gzipped,
      baseline: null,
      unit: 'B',
      ratio: null,
      target: 'no budget',
      pass: null,
      samples: '1 (deterministic)',
    };
  });
}

function unwrapRow(): BenchRow {
  const result = measureUnwrapThroughput();
  const ratio = ratioOf(result.oursNs, result.baselineNs);
  return {
    figure: 'unwrap Mastra JSON string (per call)',
    ours: result.oursNs / 1000,
    baseline: result.baselineNs / 1000,
    unit: 'µs',
    ratio,
    target: `<= ${UNWRAP_MAX_RATIO}x JSON.parse`,
    pass: ratio !== null && ratio <= UNWRAP_MAX_RATIO,
    samples: `median of ${result.rounds} rounds x ${result.callsPerRound} calls`,
  };
}

function chromiumVersion(): string {
  try {
    return execFileSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', ['--version'], { encoding: 'utf8' })
      .split('\n')[0]
      .trim();
  } catch {
    return 'not installed';
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const rows: BenchRow[] = [];
  if (wants('size')) {
    log('size: bundling every entry with esbuild...');
    rows.push(...(await sizeRows()));
  }
  if (wants('unwrap')) {
    log('unwrap: timing unwrapInterrupt vs JSON.parse...');
    rows.push(unwrapRow());
  }
  const machine = {
    cpus: `${cpus().length} x ${cpus()[0]?.model ?? 'unknown'}`,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    chromium: chromiumVersion(),
    platform: `${process.platform} ${process.arch}`,
  };
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  if (json) {
    process.stdout.write(`${JSON.stringify({ machine, seconds, budgets: SIZE_BUDGETS, rows }, null, 2)}\n`);
  } else {
    process.stdout.write(`${formatTable(rows)}\n\n`);
    process.stdout.write(`machine: ${machine.cpus}, ${machine.memoryGb} GB, Node ${machine.node}, ${machine.chromium}\n`);
    process.stdout.write(`took ${seconds} s\n`);
  }
  if (rows.some((row) => row.pass === false)) process.exitCode = 0; // misses are reported, not failures
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
