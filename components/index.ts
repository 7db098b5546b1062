/**
 * copilotkit-interrupts — everything a React app needs: the core (protocol, unwrap, registry),
 * the hooks and the cards.
 */
export * from '../src/index';
