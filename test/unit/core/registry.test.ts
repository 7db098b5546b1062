// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createRendererRegistry } from '../../../src/registry';

describe('createRendererRegistry', () => {
  const registry = createRendererRegistry(
    {
      'aidev:tool_approval': 'approval',
      'tool:schedule_meeting': 'time-picker',
      'aidev:*': 'aidev-any',
    },
    'fallback',
  );

  it('prefers the exact reason', () => {
    expect(registry.pick({ reason: 'aidev:tool_approval', toolName: 'schedule_meeting' })).toBe('approval');
  });

  it('then the tool name', () => {
    expect(registry.pick({ reason: 'mastra:tool_suspend', toolName: 'schedule_meeting' })).toBe('time-picker');
  });

  it('then the reason’s namespace', () => {
    expect(registry.pick({ reason: 'aidev:something_new' })).toBe('aidev-any');
    expect(registry.match({ reason: 'aidev:something_new' })).toBe('aidev:*');
  });

  it('then the fallback', () => {
    expect(registry.pick({ reason: 'mastra:tool_suspend', toolName: 'other' })).toBe('fallback');
    expect(registry.pick({ reason: 'unknown' })).toBe('fallback');
    expect(registry.match({ reason: 'unknown' })).toBeUndefined();
  });

  it('gives an interrupt that could not be fully read to the fallback, whatever its reason', () => {
    const unreadable = { reason: 'aidev:tool_approval', toolName: 'schedule_meeting', problem: 'metadata should be an object' };
    expect(registry.pick(unreadable)).toBe('fallback');
    expect(registry.match(unreadable)).toBeUndefined();
    expect(registry.fallback).toBe('fallback');
  });

  it('ignores inherited keys and undefined entries', () => {
    const r = createRendererRegistry({ 'x:y': undefined }, 'fallback');
    expect(r.pick({ reason: 'toString' })).toBe('fallback');
    expect(r.pick({ reason: 'x:y' })).toBe('fallback');
  });
});
