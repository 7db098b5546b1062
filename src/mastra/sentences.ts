/** Punctuation that ends a sentence, then any closing quotes or brackets after it. */
const ENDED = /[.!?…。！？](?:["'”’»)\]」』]*)$/u;
/** What a clause may trail that a full stop replaces (a comma, a colon, a dash). */
const DANGLING = /[\s,;:\-–—]+$/u;

/**
 * `text` as one sentence: trimmed, ending in a full stop unless it already ends a sentence
 * ("until Friday" → "until Friday.", "Wait!" stays, "until Friday," → "until Friday.").
 * Blank text stays blank.
 */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '' || ENDED.test(trimmed)) return trimmed;
  const bare = trimmed.replace(DANGLING, '');
  return bare === '' ? '' : `${bare}.`;
}

/**
 * Parts of a reply joined into sentences: each part ends a sentence (see {@link asSentence}),
 * blank parts are left out, one space between. Text that comes from people or tools (a reason,
 * a label, an answer) can end in anything; the reply still reads as sentences.
 */
export function sentences(...parts: (string | undefined | false)[]): string {
  return parts
    .map((part) => (part ? asSentence(part) : ''))
    .filter((part) => part !== '')
    .join(' ');
}
