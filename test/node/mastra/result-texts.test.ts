import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { approvalResultText, timePickerResultText, userQuestionResultText } from '../../../src/mastra';
import { asSentence, sentences } from '../../../src/mastra/sentences';
import { APPROVAL_STATUS } from '../../../src/protocol';

// What the agent reads (and the demo shows) after a card is answered: text people typed or picked
// (a reason, a label, an answer) set inside sentences. Whatever that text ends with, the reply
// should read as sentences: each one ended once, no stray comma or space before the full stop.

/** Free text as people type it: words, then maybe punctuation, maybe spaces. */
const word = fc.constantFrom('until', 'Friday', 'not', 'now', 'wait', 'for', 'QA', 'v2', 'ok', '周五', 'déjà');
const ending = fc.constantFrom('', '.', '!', '?', '…', ',', ';', ':', ' -', ' —', '."', '!)', '。', ' ', '  ', '\n');
const typed = fc
  .tuple(fc.constantFrom('', ' ', '  '), fc.array(word, { minLength: 1, maxLength: 5 }), ending)
  .map(([lead, words, end]) => `${lead}${words.join(' ')}${end}`);

const SENTENCE_END = /[.!?…。！？]["'”’»)\]」』]*$/u;

/** How a reply fails to read as sentences, or `[]`. */
function sentenceProblems(text: string): string[] {
  const problems: string[] = [];
  if (!SENTENCE_END.test(text)) problems.push('does not end a sentence');
  if (/[,;:\-–—]\.(?!\.)/u.test(text)) problems.push('a comma, colon or dash before a full stop');
  if (/\s[.!?]/u.test(text)) problems.push('a space before the full stop');
  if (/[,;:\-–—.];/u.test(text)) problems.push('punctuation before a semicolon');
  if (/(?<![.])\.\.(?![.])/u.test(text)) problems.push('two full stops');
  if (/[.!?…。！？]["')]*[.]/u.test(text.replace(/\.\.\./g, '…'))) problems.push('a full stop after an ended sentence');
  if (/\s{2,}|^\s|\s$/u.test(text)) problems.push('stray spaces');
  // A sentence of ours starts after one that did not end.
  if (/[^.!?…。！？"'”’)\] ] (?:Do not go ahead|Note:|Result:)/u.test(text)) problems.push('a sentence runs into the next');
  return problems;
}

/** The words of `text`, which the reply must keep. */
const wordsOf = (text: string) => text.match(/[\p{L}\p{N}]+/gu) ?? [];

const action = 'Deploy v2 to production';

describe('reply texts after an answered card', () => {
  it('given any reason, a rejection should read as sentences, keep the reason and say not to go ahead', () => {
    fc.assert(
      fc.property(typed, (reason) => {
        const text = approvalResultText({ action }, { approved: false, reason });
        expect(sentenceProblems(text)).toEqual([]);
        expect(text).toMatch(/ Do not go ahead\.$/);
        for (const w of wordsOf(reason)) expect(text).toContain(w);
      }),
    );
  });

  it('given the demo example "until Friday", the rejection should end that sentence before the next', () => {
    expect(approvalResultText({ action }, { approved: false, reason: 'until Friday' })).toBe(
      'The user rejected "Deploy v2 to production": until Friday. Do not go ahead.',
    );
  });

  it('given no reason, or only spaces, a rejection should not leave an empty clause', () => {
    for (const reason of [undefined, '', '   ']) {
      expect(approvalResultText({ action }, { approved: false, reason })).toBe(
        'The user rejected "Deploy v2 to production". Do not go ahead.',
      );
    }
  });

  it('given any note, an approval should read as sentences and keep the note', () => {
    fc.assert(
      fc.property(typed, fc.boolean(), (reason, edited) => {
        const text = approvalResultText({ action }, { approved: true, reason, ...(edited ? { editedArgs: { replicas: 4 } } : {}) });
        expect(sentenceProblems(text)).toEqual([]);
        for (const w of wordsOf(reason)) expect(text).toContain(w);
      }),
    );
  });

  it('given any action and ticket status, a decided ticket should read as sentences', () => {
    fc.assert(
      fc.property(typed, fc.constantFrom(...Object.values(APPROVAL_STATUS)), (typedAction, status) => {
        const ticket = {
          approvers: ['Ana'],
          sn: 'AP-1',
          status,
          submit_time: '2030-01-07T09:00:00Z',
          title: 'Deploy',
          url: 'https://example.com',
        };
        const text = approvalResultText({ action: typedAction }, { metadata: { ticket } });
        expect(sentenceProblems(text)).toEqual([]);
      }),
    );
  });

  it('given any slot label, a booking should read as one sentence naming the label', () => {
    fc.assert(
      fc.property(typed, (label) => {
        const text = timePickerResultText({ topic: 'Intro call' }, { chosen_time: '2030-01-07T09:00:00Z', chosen_label: label });
        expect(sentenceProblems(text)).toEqual([]);
        for (const w of wordsOf(label)) expect(text).toContain(w);
      }),
    );
  });

  it('given any typed answers, the answers text should read as one sentence keeping every answer', () => {
    fc.assert(
      fc.property(fc.array(typed, { minLength: 1, maxLength: 3 }), (answers) => {
        const text = userQuestionResultText({} as never, {
          answers: answers.map((answer, i) => ({ question: `Question ${i + 1}?`, answer: [{ label: 'others', description: answer }] })),
        });
        expect(sentenceProblems(text)).toEqual([]);
        for (const w of answers.flatMap(wordsOf)) expect(text).toContain(w);
      }),
    );
  });

  it('given a tool result after the approval, the two should be separate sentences (as the tool and the demo join them)', () => {
    fc.assert(
      fc.property(typed, typed, (note, result) => {
        const text = sentences(approvalResultText({ action }, { approved: true, reason: note }), `Result: ${result.trim()}`);
        expect(sentenceProblems(text)).toEqual([]);
        expect(text).toContain(' Result: ');
      }),
    );
  });

  it('should end a sentence once: a full stop where none is, none added after ! ? … or a closing quote', () => {
    expect(asSentence('until Friday')).toBe('until Friday.');
    expect(asSentence('until Friday,')).toBe('until Friday.');
    expect(asSentence(' until Friday. ')).toBe('until Friday.');
    expect(asSentence('Wait!')).toBe('Wait!');
    expect(asSentence('Really?')).toBe('Really?');
    expect(asSentence('he said "wait."')).toBe('he said "wait."');
    expect(asSentence('等到周五。')).toBe('等到周五。');
    expect(asSentence('   ')).toBe('');
  });
});
