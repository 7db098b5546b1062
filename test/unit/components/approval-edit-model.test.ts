// @vitest-environment node
import fc from 'fast-check';
import {
  argsObject,
  diffArgs,
  formValuesFrom,
  parseArgsJson,
  toolCallOf,
} from '../../../components/tool-approval-card/approval-edit-model';
import { flatSchemaFields } from '../../../components/shared/flat-schema';
import { unwrapInterrupt } from '../../../src/unwrap';

describe('approval edit model', () => {
  it('reads the tool, its arguments (decoding a JSON string) and their schema from the interrupt', () => {
    const interrupt = unwrapInterrupt({
      id: 'a',
      reason: 'aidev:tool_approval',
      metadata: { tool_name: 'deploy', args: '{"replicas":2}', inputSchema: { type: 'object' } },
    });
    const call = toolCallOf(interrupt);
    expect(call).toEqual({
      toolName: 'deploy',
      args: '{"replicas":2}',
      argsSchema: { type: 'object' },
      approvable: true,
      editable: true,
      rejectable: true,
      dismissible: true,
      reasonOnlyOnReject: false,
    });
    expect(toolCallOf(unwrapInterrupt({ id: 'b', reason: 'aidev:tool_approval', metadata: { args: {}, allowEdit: false } })).editable).toBe(
      false,
    );
    // A backend that takes only some answers (a LangGraph review request's config) hides the others.
    const limited = { allowApprove: false, allowReject: false, allowDismiss: false, reasonOnlyOnReject: true };
    expect(toolCallOf(unwrapInterrupt({ id: 'c', reason: 'aidev:tool_approval', metadata: { args: {}, ...limited } }))).toMatchObject({
      approvable: false,
      editable: true,
      rejectable: false,
      dismissible: false,
      reasonOnlyOnReject: true,
    });
    expect(argsObject(call.args)).toEqual({ replicas: 2 });
    expect(argsObject('[1,2]')).toBeUndefined();
  });

  it('accepts only one JSON object as edited arguments, and says why otherwise', () => {
    expect(parseArgsJson('{"a": 1}')).toEqual({ ok: true, args: { a: 1 } });
    expect(parseArgsJson('[1]')).toEqual({ ok: false, problem: 'The arguments must be one JSON object ({ … }).' });
    const broken = parseArgsJson('{"a":');
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.problem.length).toBeGreaterThan(0);
  });

  it('lists what an edit changed: changed, added and removed arguments, ignoring key order', () => {
    expect(diffArgs({ a: 1, b: { x: 1, y: 2 }, c: 'keep' }, { b: { y: 2, x: 1 }, a: 2, d: true })).toEqual([
      { name: 'a', before: 1, after: 2 },
      { name: 'c', before: 'keep' },
      { name: 'd', after: true },
    ]);
  });

  it('finds nothing changed when the arguments are the same, and a change for every argument that differs', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.dictionary(fc.string(), fc.jsonValue()), (before, after) => {
        expect(diffArgs(before, structuredClone(before))).toEqual([]);
        for (const change of diffArgs(before, after)) {
          expect(JSON.stringify(change.before)).not.toBe(JSON.stringify(change.after));
        }
      }),
    );
  });

  it('starts a schema form from the current arguments, own properties only', () => {
    const fields = flatSchemaFields({
      type: 'object',
      properties: { service: { type: 'string' }, replicas: { type: 'integer' }, dryRun: { type: 'boolean' }, toString: { type: 'string' } },
    })!;
    expect(formValuesFrom(fields, { service: 'api', replicas: 3 })).toEqual({ service: 'api', replicas: '3', dryRun: false });
  });
});
