import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ComponentType } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { onDemand } from '../../../components/host/on-demand';
import { RenderedInterrupt } from '../../../components/host/rendered-interrupt';
import type { AnyInterruptRenderer, InterruptRendererProps } from '../../../hooks/renderer-props';
import { EN_LABELS } from '../../../src/i18n/labels';
import { zhCN } from '../../../src/i18n/locales/zh-CN';
import { createRendererRegistry } from '../../../src/registry';
import { unwrapInterrupt } from '../../../src/unwrap';

/** A card whose code arrives when the test says so, like a chunk over a slow network. */
function deferredCard() {
  let arrive!: (card: ComponentType<InterruptRendererProps>) => void;
  let fail!: (error: Error) => void;
  const load = vi.fn(
    () =>
      new Promise<ComponentType<InterruptRendererProps>>((resolve, reject) => {
        arrive = resolve;
        fail = reject;
      }),
  );
  const Card = onDemand(load);
  return {
    Card,
    load,
    arrive: (card: ComponentType<InterruptRendererProps>) => act(async () => arrive(card)),
    fail: (error: Error) => act(async () => fail(error)),
  };
}

function Counter({ interrupt }: InterruptRendererProps) {
  const [clicks, setClicks] = useState(0);
  return (
    <button type="button" onClick={() => setClicks(clicks + 1)}>
      {interrupt.reason} clicked {clicks}
    </button>
  );
}

function Fallback({ interrupt }: InterruptRendererProps) {
  return <p data-testid="fallback">{interrupt.problem}</p>;
}

const interrupt = unwrapInterrupt({ id: 'i1', reason: 'acme:count' });

const props = {
  interrupt,
  status: 'pending',
  resolve: () => {},
  cancel: () => {},
  readOnly: false,
  locale: 'en',
} as InterruptRendererProps;

/** The interrupt drawn the way the hook draws it, with `Card` for its reason. */
function drawn(
  Card: ComponentType<InterruptRendererProps>,
  fallback: ComponentType<InterruptRendererProps> = Fallback,
  language: Pick<InterruptRendererProps, 'locale' | 'labels'> = props,
) {
  const registry = createRendererRegistry<AnyInterruptRenderer>(
    { 'acme:count': Card as AnyInterruptRenderer },
    fallback as AnyInterruptRenderer,
  );
  return <RenderedInterrupt registry={registry} props={{ ...props, ...language }} />;
}

describe('a built-in card fetched on demand', () => {
  describe('given its code has not arrived', () => {
    it('should hold a busy placeholder in its place, then draw the card when the code arrives', async () => {
      const { Card, arrive } = deferredCard();
      const { container } = render(drawn(Card));
      expect(container.querySelector('[aria-busy="true"]')).toBeInTheDocument();
      expect(screen.queryByRole('button')).not.toBeInTheDocument();

      await arrive(Counter);
      expect(screen.getByRole('button')).toHaveTextContent('acme:count clicked 0');
      expect(container.querySelector('[aria-busy="true"]')).not.toBeInTheDocument();
    });

    it.each([
      { language: props, text: 'Loading the card…', lang: 'en' },
      { language: zhCN, text: '卡片加载中…', lang: 'zh-CN' },
    ])("should tell a screen reader that the card is loading, in the card's language ($lang)", async ({ language, text, lang }) => {
      const { Card, arrive } = deferredCard();
      render(drawn(Card, Fallback, language));
      const placeholder = screen.getByTestId('interrupt-loading');
      expect(placeholder).toHaveAttribute('aria-busy', 'true');
      expect(placeholder).toHaveAttribute('lang', lang);
      expect(placeholder).toHaveTextContent(text);

      await arrive(Counter);
      expect(screen.queryByTestId('interrupt-loading')).not.toBeInTheDocument();
    });

    it("given an app's own table without the loading label, should say it in English, marked as English", () => {
      const { Card } = deferredCard();
      const french = Object.fromEntries(
        Object.keys(EN_LABELS)
          .filter((key) => key !== 'loading')
          .map((key) => [key, `fr:${key}`]),
      );
      render(drawn(Card, Fallback, { locale: 'fr-CA', labels: french }));
      const placeholder = screen.getByTestId('interrupt-loading');
      expect(placeholder).toHaveAttribute('lang', 'fr-CA');
      expect(placeholder).toHaveTextContent(EN_LABELS.loading!);
    });

    it('should fetch the code once, however many cards wait for it', async () => {
      const { Card, load, arrive } = deferredCard();
      render(
        <>
          {drawn(Card)}
          {drawn(Card)}
        </>,
      );
      void Card.preload();
      await arrive(Counter);
      expect(screen.getAllByRole('button')).toHaveLength(2);
      expect(load).toHaveBeenCalledTimes(1);
    });
  });

  describe('given its code was preloaded', () => {
    it('should draw the card in the first render, with no placeholder to flash', async () => {
      const { Card, arrive } = deferredCard();
      const loaded = Card.preload();
      await arrive(Counter);
      await loaded;
      const { container } = render(drawn(Card));
      expect(screen.getByRole('button')).toHaveTextContent('clicked 0');
      expect(container.querySelector('[aria-busy="true"]')).not.toBeInTheDocument();
    });
  });

  describe('given a card drawn after its code arrived', () => {
    it('should keep its state when the transcript renders it again', async () => {
      const { Card, arrive } = deferredCard();
      const { rerender } = render(drawn(Card));
      await arrive(Counter);
      await userEvent.click(screen.getByRole('button'));
      rerender(drawn(Card));
      expect(screen.getByRole('button')).toHaveTextContent('clicked 1');
    });
  });

  describe('given its code cannot be fetched', () => {
    it('should show the fallback naming the failure, and say so in the console', async () => {
      const error = vi.spyOn(console, 'error').mockImplementation(() => {});
      const { Card, fail } = deferredCard();
      render(drawn(Card));
      await fail(new Error('chunk load failed'));
      expect(screen.getByTestId('fallback')).toHaveTextContent('The "acme:count" renderer failed: chunk load failed');
      expect(error.mock.calls.some((call) => String(call[0]).includes('acme:count'))).toBe(true);
      error.mockRestore();
    });

    it('should fetch it again on the next preload, and draw the card from then on', async () => {
      const error = vi.spyOn(console, 'error').mockImplementation(() => {});
      const { Card, load, fail, arrive } = deferredCard();
      const first = render(drawn(Card));
      await fail(new Error('offline'));
      expect(screen.getByTestId('fallback')).toBeInTheDocument();
      first.unmount();

      // The hook preloads when it mounts again (a new page, a remounted chat).
      const again = Card.preload();
      await arrive(Counter);
      await again;
      render(drawn(Card));
      expect(screen.getByRole('button')).toHaveTextContent('acme:count clicked 0');
      expect(load).toHaveBeenCalledTimes(2);
      error.mockRestore();
    });

    it('should fall back to the last-resort card when the fallback cannot be fetched either', async () => {
      const error = vi.spyOn(console, 'error').mockImplementation(() => {});
      const card = deferredCard();
      const fallback = deferredCard();
      render(drawn(card.Card, fallback.Card));
      await card.fail(new Error('offline'));
      await fallback.fail(new Error('offline'));
      expect(screen.getByTestId('interrupt-builtin-fallback')).toHaveTextContent('The "acme:count" renderer failed: offline');
      error.mockRestore();
    });
  });
});
