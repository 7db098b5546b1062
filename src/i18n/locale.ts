/**
 * Locales the built-in cards ship labels for: English built in, Simplified Chinese from
 * `copilotkit-interrupts/locales/zh-CN`.
 */
export type InterruptLocale = 'en' | 'zh-CN';
