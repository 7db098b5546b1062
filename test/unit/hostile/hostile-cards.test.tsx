import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FallbackInterruptCard } from '../../../components/fallback-interrupt-card/fallback-interrupt-card';
import { coerceValues, isFormComplete, type FlatField } from '../../../components/shared/flat-schema';
import { LastResortCard } from '../../../components/host/last-resort-card';
import type { InterruptRendererProps } from '../../../hooks/renderer-props';

const field = (name: string, type: FlatField['type'] = 'string'): FlatField => ({ name, type, title: name, required: true });

/** Render props whose interrupt fields all have the wrong types, as a hand-edited storage record could. */
const wrongTyped = {
  interrupt: {
    id: 'w',
    reason: { r: 1 },
    message: { text: 'x' },
    problem: ['p'],
    expiresAt: 5,
    metadata: 'm',
    payload: 1,
    source: 'raw',
    raw: undefined,
  },
  status: 'error',
  error: { e: 1 },
  result: undefined,
  readOnly: false,
  locale: 'en',
  resolve: () => {},
  cancel: () => {},
  retry: () => {},
} as unknown as InterruptRendererProps<unknown>;

describe('cards on wrong-typed input', () => {
  it('given wrong-typed interrupt fields, the last-resort card should render and not throw', () => {
    render(<LastResortCard {...(wrongTyped as InterruptRendererProps)} />);
    expect(screen.getByTestId('interrupt-builtin-fallback')).toBeInTheDocument();
  });

  it('given wrong-typed interrupt fields, the fallback card should render and not throw', () => {
    render(<FallbackInterruptCard {...wrongTyped} status="pending" />);
    expect(screen.getByTestId('fallback-interrupt-card')).toBeInTheDocument();
  });
});

describe('fallback form treats property names as data', () => {
  it('given required fields named toString and valueOf left empty, should not count them as filled', () => {
    expect(isFormComplete([field('toString'), field('valueOf')], {})).toBe(false);
  });

  it('given a field named __proto__, should keep its typed value as an own property', () => {
    const values = Object.defineProperty({}, '__proto__', { value: '42', enumerable: true }) as Record<string, string>;
    const out = coerceValues([field('__proto__', 'number')], values);
    expect(Object.prototype.hasOwnProperty.call(out, '__proto__')).toBe(true);
    expect(JSON.stringify(out)).toBe('{"__proto__":42}');
    expect(isFormComplete([field('__proto__', 'number')], values)).toBe(true);
  });
});
