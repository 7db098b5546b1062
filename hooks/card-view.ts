import type { InterruptLocale } from '../src/i18n/locale';
import type { RendererRegistry } from '../src/registry';
import type { AnyInterruptRenderer } from './renderer-props';
import type { InterruptController as Controller } from '../src/controller';

/** What cards need from the hook's config to draw themselves. */
export interface CardView {
  /** The app's renderers merged over the built-in cards, with the fallback. */
  registry: RendererRegistry<AnyInterruptRenderer>;
  locale: InterruptLocale;
  labels?: Readonly<Record<string, string>>;
}

/** The controller as the hook and the cards use it: its view says how cards draw themselves. */
export type InterruptController = Controller<CardView>;
