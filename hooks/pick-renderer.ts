import { createRendererRegistry, type RendererMap } from '../src/registry';
import type { UnwrappedInterrupt } from '../src/unwrap';
import type { InterruptRenderer } from './renderer-props';

export interface PickedRenderer {
  Renderer: InterruptRenderer<any>;
  /** The registry key that matched, or `fallback`. Names the renderer in error messages. */
  name: string;
}

export type RendererPicker = (interrupt: UnwrappedInterrupt) => PickedRenderer;

/**
 * Renderer lookup for the hook: the app's renderers merged over the defaults, then the registry
 * order (reason, `tool:<name>`, `<namespace>:*`). An interrupt that could not be fully unwrapped
 * (`problem` set) always goes to the fallback, which is the one card that shows the problem.
 */
export function createRendererPicker(
  defaults: RendererMap<InterruptRenderer<any>>,
  overrides: RendererMap<InterruptRenderer<any>> | undefined,
  fallback: InterruptRenderer<any>,
): RendererPicker {
  const renderers = { ...defaults, ...overrides };
  const registry = createRendererRegistry(renderers, fallback);
  return (interrupt) => {
    const key = interrupt.problem ? undefined : registry.match(interrupt);
    return key === undefined ? { Renderer: fallback, name: 'fallback' } : { Renderer: renderers[key]!, name: key };
  };
}
