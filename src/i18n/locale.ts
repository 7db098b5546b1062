/**
 * The cards' language as a BCP 47 tag (their `lang`). English is built in; every other language
 * comes as one locale module, `{ locale, labels }` (Simplified Chinese:
 * `copilotkit-interrupts/locales/zh-CN`), or as your own whole label table.
 */
// `string & {}` keeps the shipped tags suggested by editors while any tag type-checks.
export type InterruptLocale = 'en' | 'zh-CN' | (string & {});
