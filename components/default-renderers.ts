import type { InterruptRenderer } from '../hooks/renderer-props';

/**
 * The built-in cards, keyed the way the registry looks them up (SPEC section 4):
 * exact reason, `tool:<toolName>`, `<namespace>:*`.
 */
export const defaultRenderers: Readonly<Record<string, InterruptRenderer<any>>> = {};

/** The card for interrupts no renderer claims. `undefined` until the cards land. */
export const defaultFallback: InterruptRenderer<any> | undefined = undefined;
