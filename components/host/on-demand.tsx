import { lazy, type ComponentType } from 'react';

/** A component whose code is fetched the first time it renders, or earlier through `preload`. */
export type OnDemand<P> = ComponentType<P> & {
  /** Starts fetching the code (once); resolves when the component can render without suspending. */
  preload: () => Promise<unknown>;
};

/**
 * Wraps a dynamic import as a component, so a bundler splits the code off and an app pays for a
 * card only when it is needed. Until the code has arrived it suspends (the caller's `<Suspense>`
 * shows a placeholder); after that it renders the loaded component directly. `React.lazy` alone
 * would suspend once more on its first render even when `preload` had already finished, which
 * would flash the placeholder for a card that was ready. A failed fetch throws to the nearest
 * error boundary, like a card that throws; a later `preload` tries again.
 */
export function onDemand<P extends object>(load: () => Promise<ComponentType<P>>): OnDemand<P> {
  let Loaded: ComponentType<P> | undefined;
  let pending: Promise<{ default: ComponentType<P> }> | undefined;
  let failed = false;
  const fetchOnce = () =>
    (pending ??= load().then(
      (component) => {
        Loaded = component;
        return { default: component };
      },
      (error: unknown) => {
        pending = undefined;
        failed = true;
        throw error;
      },
    ));
  // `React.lazy` keeps a failure for good, and it must: a spot that saw the failure shows the
  // fallback instead of fetching in a loop. A network blip must not break the card for every
  // later spot, though: an explicit `preload` (the hook and `InterruptMessageRender` call it when
  // they mount) fetches again, with a fresh `lazy` for the spots drawn from then on.
  let Lazy = lazy(fetchOnce);
  const preload = () => {
    if (failed) {
      failed = false;
      Lazy = lazy(fetchOnce);
    }
    return fetchOnce();
  };
  // `Loaded` is set before `Lazy` can resolve, so `Lazy` never commits and the element type
  // never changes under a mounted card (which would reset its state).
  const OnDemandComponent = (props: P) => {
    const Component = Loaded ?? Lazy;
    return <Component {...props} />;
  };
  return Object.assign(OnDemandComponent, { preload });
}
