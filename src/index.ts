/**
 * copilotkit-interrupts/core — the framework-free half: protocol types and constants,
 * `unwrapInterrupt`, the renderer registry. Safe to import on a server; imports no React.
 */
export * from './protocol';
export * from './unwrap';
export * from './registry';
export type { InterruptLocale } from './i18n/locale';
