/** The benchmark table: one row per figure, ours next to its baseline. */
import { round } from './stats';

export interface BenchRow {
  figure: string;
  /** Our number, in `unit`. */
  ours: number | null;
  /** The baseline's number, in `unit` (null when a figure has no baseline of that kind). */
  baseline: number | null;
  unit: string;
  /** ours / baseline. */
  ratio: number | null;
  /** Show the ratio as a share of the baseline (`0.478 %`) rather than a factor (`0.00478x`). */
  ratioAsShare?: boolean;
  /** The target in words, e.g. "<= 1.05x". */
  target: string;
  /** null: not measured (the reason is in `note`). */
  pass: boolean | null;
  /** Repetitions behind the medians. */
  samples: string;
  note?: string;
  /** Quartiles of the raw samples (JSON output only), to judge the noise behind a ratio. */
  spread?: { ours: [number, number, number]; baseline: [number, number, number] };
}

export function ratioOf(ours: number | null, baseline: number | null): number | null {
  if (ours === null || baseline === null || baseline === 0) return null;
  return ours / baseline;
}

function cell(value: number | null, unit = ''): string {
  if (value === null || Number.isNaN(value)) return '-';
  return `${round(value)}${unit}`;
}

export function formatTable(rows: readonly BenchRow[]): string {
  const header = ['figure', 'ours', 'baseline', 'ratio', 'target', 'pass', 'samples'];
  const body = rows.map((row) => [
    row.figure,
    cell(row.ours, ` ${row.unit}`),
    cell(row.baseline, ` ${row.unit}`),
    row.ratio === null ? '-' : row.ratioAsShare ? `${round(100 * row.ratio)} %` : `${round(row.ratio)}x`,
    row.target,
    row.pass === null ? 'n/a' : row.pass ? 'yes' : 'NO',
    row.samples,
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((line) => line[column].length)));
  const line = (cells: string[]) =>
    cells
      .map((text, column) => text.padEnd(widths[column]))
      .join(' | ')
      .trimEnd();
  const notes = rows.filter((row) => row.note).map((row) => `- ${row.figure}: ${row.note}`);
  return [line(header), widths.map((width) => '-'.repeat(width)).join('-|-'), ...body.map(line), '', ...notes].join('\n');
}
