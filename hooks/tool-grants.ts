import type { ToolGrants } from './renderer-props';

/**
 * {@link ToolGrants} from the app's `allowAlways` option, the tools allowed so far, and how to
 * change them; `undefined` when the app does not offer "Always allow".
 */
export function toolGrantsFor(
  allowAlways: boolean | readonly string[] | undefined,
  allowed: readonly string[],
  change: { allow(toolName: string): void; revoke(toolName: string): void },
): ToolGrants | undefined {
  if (!allowAlways) return undefined;
  const offers = (toolName: string) => allowAlways === true || allowAlways.includes(toolName);
  return {
    offers,
    allows: (toolName) => offers(toolName) && allowed.includes(toolName),
    allow: (toolName) => {
      if (offers(toolName)) change.allow(toolName);
    },
    revoke: (toolName) => change.revoke(toolName),
  };
}
