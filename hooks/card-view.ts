import type { InterruptLocale } from '../src/i18n/locale';
import type { RendererPicker } from './pick-renderer';
import type { InterruptRenderer } from './renderer-props';

/** What cards need from the hook's config to draw themselves. */
export interface CardView {
  pick: RendererPicker;
  fallback: InterruptRenderer<any>;
  locale: InterruptLocale;
  labels?: Readonly<Record<string, string>>;
}
