import type { ReactNode } from 'react';
import { safeHttpUrl } from './safe-url';

export interface SafeLinkProps {
  href: unknown;
  children: ReactNode;
  className?: string;
}

/**
 * A link that opens in a new tab, only for `http:`/`https:` URLs; otherwise renders nothing, so a
 * `javascript:` URL from a payload is never clickable.
 */
export function SafeLink({ href, children, className }: SafeLinkProps) {
  const url = safeHttpUrl(href);
  if (!url) return null;
  return (
    <a className={className} href={url} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}
