/** Locales the built-in cards ship labels for. */
export type InterruptLocale = 'en' | 'zh-CN';
