import { afterAll, afterEach } from 'vitest';
import { runEndOfFile } from '../helpers/end-of-file';

// Registered before the file's own hooks, so it runs after its `afterAll`s (servers closed).
afterAll(runEndOfFile);

// A file that needs no DOM runs in Node (`@vitest-environment node` at its top): it gets none of
// this, and loads neither React's testing library nor the DOM matchers.
if (typeof window !== 'undefined') {
  await import('@testing-library/jest-dom/vitest');
  const { cleanup } = await import('@testing-library/react');
  afterEach(() => cleanup());
  stubLayout();
}

function stubLayout() {
  // jsdom has no layout APIs; CopilotKit's chat observes element sizes and media queries.
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
  if (!window.matchMedia) {
    window.matchMedia = (query: string) =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addListener() {},
        removeListener() {},
        addEventListener() {},
        removeEventListener() {},
        dispatchEvent: () => false,
      }) as MediaQueryList;
  }
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
  Element.prototype.scrollTo ??= function scrollTo() {};
}
