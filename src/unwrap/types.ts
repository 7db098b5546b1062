import type { InterruptPeople } from '../protocol/types';

/** Where an unwrapped interrupt came from. */
export type InterruptSource = 'standard' | 'mastra' | 'legacy' | 'raw';

/**
 * One interrupt in one shape, whatever it arrived as.
 *
 * - `metadata`: what the renderer for `reason` reads (e.g. `metadata.ticket`, `metadata.questions`).
 * - `payload`: the business data (a Mastra tool's suspend payload, a standard interrupt's metadata,
 *   or the bare value).
 * - `problem`: set when the input could not be fully understood; the fallback card shows it.
 */
export interface UnwrappedInterrupt<M extends Record<string, unknown> = Record<string, unknown>, P = unknown> {
  /** The interrupt's own id, unchanged (resume addresses it). Synthesised, stable, when absent. */
  id: string;
  /** The effective reason, lifted from a Mastra suspend payload when it carries one. */
  reason: string;
  /** The reason the transport used when `reason` was lifted (e.g. `mastra:tool_suspend`). */
  originalReason?: string;
  toolName?: string;
  toolCallId?: string;
  message?: string;
  expiresAt?: string;
  metadata: M;
  responseSchema?: unknown;
  payload: P;
  source: InterruptSource;
  /** The input exactly as received. */
  raw: unknown;
  problem?: string;
  /**
   * Who it is for, as the durable runner told the person viewing it: who it waits for, whether they
   * may answer it, and who did. Absent without a runner that identifies people.
   */
  people?: InterruptPeople;
}
