import type { UnwrappedInterrupt } from '../unwrap/types';

/** Renderers keyed by `reason`, `tool:<toolName>` or `<namespace>:*`. */
export type RendererMap<R> = Readonly<Record<string, R | undefined>>;

/** What the registry reads of an interrupt. */
export type RegistryKey = Pick<UnwrappedInterrupt, 'reason' | 'toolName'> & { problem?: string };

export interface RendererRegistry<R> {
  /**
   * The renderer for an interrupt: exact reason, then `tool:<toolName>`, then `<namespace>:*`,
   * then the fallback. An interrupt with a `problem` (it could not be fully read) always gets the
   * fallback: the renderer that shows the problem instead of guessing at missing fields.
   */
  pick(interrupt: RegistryKey): R;
  /** The key `pick` matched, or `undefined` for the fallback. */
  match(interrupt: RegistryKey): string | undefined;
  /** The renderer for everything no key claims. */
  readonly fallback: R;
}

/**
 * A lookup from interrupts to renderers. Framework-free: a renderer is any value.
 *
 * @example
 * const registry = createRendererRegistry({ 'aidev:user_question': QuestionCard, 'tool:schedule_meeting': TimePicker }, Fallback);
 * registry.pick(unwrapInterrupt(raw)); // QuestionCard, TimePicker or Fallback
 */
export function createRendererRegistry<R>(renderers: RendererMap<R>, fallback: R): RendererRegistry<R> {
  const has = (key: string) => Object.hasOwn(renderers, key) && renderers[key] !== undefined;

  const match: RendererRegistry<R>['match'] = ({ reason, toolName, problem }) => {
    if (problem) return undefined;
    const colon = reason.indexOf(':');
    // The keys an interrupt may be registered under, most specific first.
    const keys = [reason, toolName && `tool:${toolName}`, colon > 0 && `${reason.slice(0, colon)}:*`];
    return keys.find((key): key is string => !!key && has(key));
  };

  return {
    fallback,
    match,
    pick(interrupt) {
      const key = match(interrupt);
      return key === undefined ? fallback : (renderers[key] as R);
    },
  };
}
