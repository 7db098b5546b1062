/**
 * axe settings shared by Storybook's a11y panel and the test suites. A story renders one card, not
 * a page, so the rules about page structure (a main landmark, an h1, content inside landmarks)
 * are off; every other rule, contrast included, applies.
 */
export const PAGE_LEVEL_RULES = ['region', 'landmark-one-main', 'page-has-heading-one'] as const;

export const a11yConfig = {
  rules: PAGE_LEVEL_RULES.map((id) => ({ id, enabled: false })),
};
