// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { coerceValues, flatSchemaFields, isFormComplete } from '../../../components/shared/flat-schema';
import { formatJson } from '../../../components/shared/format-json';
import { safeHttpUrl } from '../../../components/shared/safe-url';
import { answerFromDraft, EMPTY_DRAFT, optionKey, toggleOption } from '../../../components/user-question-card/user-question-model';
import { formatRemaining } from '../../../hooks/use-countdown';
import { approvalStatusTone } from '../../../components/tool-approval-card/approval-status-badge';

describe('safeHttpUrl', () => {
  it.each([
    ['https://example.com/t/1', 'https://example.com/t/1'],
    ['  http://example.com  ', 'http://example.com/'],
    ['javascript:alert(1)', undefined],
    ['JaVaScRiPt:alert(1)', undefined],
    ['data:text/html,<script>', undefined],
    ['/relative/path', undefined],
    [42, undefined],
  ])('%s -> %s', (input, expected) => expect(safeHttpUrl(input)).toBe(expected));
});

describe('flat schema', () => {
  const schema = {
    type: 'object',
    properties: { name: { type: 'string' }, count: { type: 'integer' }, ok: { type: 'boolean' } },
    required: ['count'],
  };

  it('reads flat object schemas and rejects nested ones', () => {
    expect(flatSchemaFields(schema)?.map((f) => [f.name, f.type, f.required])).toEqual([
      ['name', 'string', false],
      ['count', 'integer', true],
      ['ok', 'boolean', false],
    ]);
    expect(flatSchemaFields({ type: 'object', properties: { nested: { type: 'object' } } })).toBeUndefined();
    expect(flatSchemaFields({ type: 'array' })).toBeUndefined();
    expect(flatSchemaFields(undefined)).toBeUndefined();
  });

  it('coerces values and checks required fields', () => {
    const fields = flatSchemaFields(schema)!;
    expect(isFormComplete(fields, {})).toBe(false);
    expect(isFormComplete(fields, { count: 'abc' })).toBe(false);
    expect(isFormComplete(fields, { count: '2' })).toBe(true);
    expect(coerceValues(fields, { name: 'x', count: '2', ok: true })).toEqual({ name: 'x', count: 2, ok: true });
    expect(coerceValues(fields, { name: '  ' })).toEqual({ ok: false });
  });
});

describe('user question answers', () => {
  const single = {
    header: 'h',
    question: 'q',
    multiSelect: false,
    options: [
      { label: 'a', description: 'A' },
      { label: 'b', description: 'B' },
    ],
  };
  const multi = { ...single, multiSelect: true };

  it('single choice replaces, multiple choice toggles', () => {
    expect(toggleOption(single, toggleOption(single, EMPTY_DRAFT, '0'), '1').selected).toEqual(['1']);
    const twice = toggleOption(multi, toggleOption(multi, EMPTY_DRAFT, '0'), '1');
    expect(twice.selected).toEqual(['0', '1']);
    expect(toggleOption(multi, twice, '0').selected).toEqual(['1']);
  });

  it('given two options with one label, picking one answers with that one only', () => {
    const twins = {
      ...single,
      options: [
        { label: 'Deploy', description: 'to staging' },
        { label: 'Deploy', description: 'to production' },
      ],
    };
    const draft = toggleOption(twins, EMPTY_DRAFT, optionKey(0));
    expect(answerFromDraft(twins, draft)?.answer).toEqual([{ label: 'Deploy', description: 'to staging' }]);
  });

  it('keeps option order, needs Others text, keeps multiSelect only when given', () => {
    expect(answerFromDraft(multi, { ...EMPTY_DRAFT, selected: ['1', '0'] })).toEqual({
      question: 'q',
      multiSelect: true,
      answer: single.options,
    });
    expect(answerFromDraft(single, { ...EMPTY_DRAFT, selected: ['others'] })).toBeUndefined();
    expect(answerFromDraft(single, { ...EMPTY_DRAFT, selected: ['others'], othersText: ' x ' })?.answer).toEqual([
      { label: 'others', description: 'x' },
    ]);
    expect(answerFromDraft({ header: 'h', question: 'free' }, { ...EMPTY_DRAFT, text: 'hi' })).toEqual({
      question: 'free',
      answer: [{ label: 'others', description: 'hi' }],
    });
    expect(answerFromDraft({ header: 'h', question: 'free' }, EMPTY_DRAFT)).toBeUndefined();
  });
});

describe('formatting', () => {
  it('formats remaining time', () => {
    expect(formatRemaining(95_000)).toBe('1:35');
    expect(formatRemaining(3_725_000)).toBe('1:02:05');
    expect(formatRemaining(2 * 86_400_000 + 3 * 3_600_000)).toBe('2d 3h');
  });

  it('pretty-prints JSON, decodes JSON strings, keeps other strings', () => {
    expect(formatJson({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(formatJson('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(formatJson('plain')).toBe('plain');
  });
});

describe('ticket status tone', () => {
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])(
    'given a ticket status named %s, should be neutral, like any unknown status',
    (status) => {
      expect(approvalStatusTone(status)).toBe('neutral');
    },
  );

  it('given the known statuses, should give each its colour', () => {
    expect(['pending', 'draft', 'approved', 'rejected', 'revoked', 'cancelled'].map(approvalStatusTone)).toEqual([
      'warning',
      'info',
      'success',
      'danger',
      'danger',
      'neutral',
    ]);
  });
});
