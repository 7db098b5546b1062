import { Suspense } from 'react';
import type { RendererRegistry } from '../../src/registry';
import { resolveLanguage } from '../../src/i18n/labels';
import type { AnyInterruptRenderer, InterruptRendererProps } from '../../hooks/renderer-props';
import { useDoubleClickGuard } from './double-click-guard';
import { LastResortCard } from './last-resort-card';
import { RendererBoundary } from './renderer-boundary';

export interface RenderedInterruptProps {
  registry: RendererRegistry<AnyInterruptRenderer>;
  props: InterruptRendererProps;
}

/**
 * Where a built-in card will be, while its code loads: a busy box of a compact card's height. It
 * says so to a screen reader that reaches it; on screen it stays blank, since it is usually gone
 * within a frame and a flashing word would be noise.
 */
function CardLoading({ locale, labels }: Pick<InterruptRendererProps, 'locale' | 'labels'>) {
  const language = resolveLanguage(locale, labels);
  return (
    <div className="cki-root cki-card cki-loading" aria-busy="true" lang={language.locale} data-testid="interrupt-loading">
      <span className="cki-sr-only">{language.labels.loading}</span>
    </div>
  );
}

/**
 * One interrupt drawn by the renderer the registry picks for it. A renderer that throws is
 * replaced by the fallback, which shows the error as the interrupt's problem; a fallback that
 * throws, by the last-resort card. The live hook and `InterruptMessageRender` both draw through
 * here, so a stored transcript follows the same rules as the live chat (the double-click guard
 * included). A built-in card whose code has not arrived yet (it loads on demand) holds
 * `CardLoading` meanwhile.
 */
export function RenderedInterrupt({ registry, props: given }: RenderedInterruptProps) {
  // The rest of a double click that answers this card answers nothing else (the guard's module).
  const props = { ...given, ...useDoubleClickGuard(given.resolve, given.cancel) };
  const { interrupt } = props;
  const name = registry.match(interrupt) ?? 'fallback';
  const Renderer = registry.pick(interrupt);
  const Fallback = registry.fallback;
  return (
    <Suspense fallback={<CardLoading locale={props.locale} labels={props.labels} />}>
      <RendererBoundary
        key={name}
        name={name}
        fallback={(error) => {
          const broken = { ...props, interrupt: { ...interrupt, problem: `The "${name}" renderer failed: ${error.message}` } };
          return (
            <RendererBoundary name="fallback" fallback={() => <LastResortCard {...broken} />}>
              <Fallback {...broken} />
            </RendererBoundary>
          );
        }}
      >
        {/* Looked up, not created: the registry hands back the app's own module-level components,
          the same one for the same interrupt, so React keeps its state across renders. */}
        {/* eslint-disable-next-line react-hooks/static-components */}
        <Renderer {...props} />
      </RendererBoundary>
    </Suspense>
  );
}
