import type { ReactNode } from 'react';

/** One term and its value in a card's details list (`<dl className="cki-fields">`). */
export function DetailsRow({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="cki-fields__row">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}
