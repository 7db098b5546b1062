/** Prefixes every console message of the package, so an app can tell (and filter) ours. */
export const LOG = '[copilotkit-interrupts]';
