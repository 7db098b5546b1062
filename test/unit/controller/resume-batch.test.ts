// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { carriesBatch } from '../../../src/controller/resume-batch';

describe('carriesBatch', () => {
  it('matches a run whose resume addresses one of the batch ids', () => {
    const batch = { ids: ['a', 'b'] };
    expect(carriesBatch(batch, { resume: [{ interruptId: 'b' }] })).toBe(true);
    expect(carriesBatch(batch, { resume: [{ interruptId: 'c' }] })).toBe(false);
    expect(carriesBatch(batch, { forwardedProps: {} })).toBe(false);
    expect(carriesBatch(batch, undefined)).toBe(false);
  });

  it('matches a legacy batch by the forwarded command', () => {
    const batch = { ids: ['legacy-1'], legacy: { resume: { ok: true }, interruptEvent: '{}' } };
    expect(carriesBatch(batch, { forwardedProps: { command: batch.legacy } })).toBe(true);
    expect(carriesBatch(batch, { forwardedProps: {} })).toBe(false);
    // The run input is a structured clone, and other runs may carry an app property named `command`.
    expect(carriesBatch(batch, { forwardedProps: { command: structuredClone(batch.legacy) } })).toBe(true);
    expect(carriesBatch(batch, { forwardedProps: { command: 'app-wide setting' } })).toBe(false);
    expect(carriesBatch(batch, { forwardedProps: { command: { ...batch.legacy, interruptEvent: 'another event' } } })).toBe(false);
  });
});
