import type { UnwrappedInterrupt } from '../unwrap/types';

/** Renderers keyed by `reason`, `tool:<toolName>` or `<namespace>:*`. */
export type RendererMap<R> = Readonly<Record<string, R | undefined>>;

export interface RendererRegistry<R> {
  /** The renderer for an interrupt: exact reason, then `tool:<toolName>`, then `<namespace>:*`, then the fallback. */
  pick(interrupt: Pick<UnwrappedInterrupt, 'reason' | 'toolName'>): R;
  /** The key `pick` matched, or `undefined` for the fallback. */
  match(interrupt: Pick<UnwrappedInterrupt, 'reason' | 'toolName'>): string | undefined;
}

/**
 * A lookup from interrupts to renderers. Framework-free: a renderer is any value.
 *
 * @example
 * const registry = createRendererRegistry({ 'aidev:user_question': QuestionCard, 'tool:schedule_meeting': TimePicker }, Fallback);
 * registry.pick(unwrapInterrupt(raw)); // QuestionCard, TimePicker or Fallback
 */
export function createRendererRegistry<R>(renderers: RendererMap<R>, fallback: R): RendererRegistry<R> {
  const has = (key: string) => Object.prototype.hasOwnProperty.call(renderers, key) && renderers[key] !== undefined;

  const match: RendererRegistry<R>['match'] = ({ reason, toolName }) => {
    const colon = reason.indexOf(':');
    // The keys an interrupt may be registered under, most specific first.
    const keys = [reason, toolName && `tool:${toolName}`, colon > 0 && `${reason.slice(0, colon)}:*`];
    return keys.find((key): key is string => !!key && has(key));
  };

  return {
    match,
    pick(interrupt) {
      const key = match(interrupt);
      return key === undefined ? fallback : (renderers[key] as R);
    },
  };
}
