// @vitest-environment node
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// A function a reader cannot hold in their head hides its rules: no function in src/ runs over
// MAX_LINES lines, from its first line to its last, nested functions counted in their parent.
const MAX_LINES = 80;
const root = join(__dirname, '../../..');

/**
 * Today's longer functions outside the middleware, each with its length when it was listed. The
 * list may only shrink: an entry may not grow, and one back under the limit must be taken off.
 */
const ALLOWED: Record<string, number> = {};

// The controller is an interpreter over the session: what grows is a rule (the session's) or a
// job of its own file (agent-events.ts, card-index.ts, effects.ts), never the controller.
const CONTROLLER = 'src/controller/interrupt-controller.ts';
const CONTROLLER_MAX_LINES = 450;
const CONTROLLER_MAX_FIELDS = 8;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** A function's name as a reader finds it: its own, or the variable or property that holds it. */
function nameOf(node: ts.FunctionLikeDeclaration, file: ts.SourceFile): string {
  if (node.name) return node.name.getText(file);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return parent.name.getText(file);
  }
  return `<anonymous at line ${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}>`;
}

/** Every function in src/ with a body, as `<file> <name>`, and its length in lines. */
function functionLengths(): Map<string, number> {
  const lengths = new Map<string, number>();
  for (const path of sourceFiles(join(root, 'src'))) {
    const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body) {
        const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
        const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
        const name = `${relative(root, path)} ${nameOf(node as ts.FunctionLikeDeclaration, file)}`;
        lengths.set(name, Math.max(lengths.get(name) ?? 0, last - first + 1));
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return lengths;
}

/** The fields of the controller class (its properties, `#private` or not; accessors and methods are no fields). */
function controllerFields(): string[] {
  const path = join(root, CONTROLLER);
  const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const controller = file.statements.find(
    (s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === 'InterruptController',
  );
  return controller ? controller.members.filter(ts.isPropertyDeclaration).map((m) => m.name.getText(file)) : [];
}

describe('controller size', () => {
  it(`given the controller, should stay under ${CONTROLLER_MAX_LINES} lines`, () => {
    const lines = readFileSync(join(root, CONTROLLER), 'utf8').split('\n').length;
    expect(lines).toBeLessThan(CONTROLLER_MAX_LINES);
  });

  it(`given the controller class, should hold at most ${CONTROLLER_MAX_FIELDS} fields`, () => {
    const fields = controllerFields();
    expect(fields.length).toBeGreaterThan(0);
    expect(fields.length, fields.join(', ')).toBeLessThanOrEqual(CONTROLLER_MAX_FIELDS);
  });
});

describe('function size', () => {
  const lengths = functionLengths();

  it('finds the functions of src/ (the middleware among them)', () => {
    expect(lengths.size).toBeGreaterThan(100);
    expect([...lengths.keys()]).toContain('src/runtime/normalize-interrupts.ts normalizeInterrupts');
  });

  it(`keeps every function in src/ at ${MAX_LINES} lines or fewer, but the listed ones, which do not grow`, () => {
    const tooLong = [...lengths]
      .filter(([name, length]) => length > (ALLOWED[name] ?? MAX_LINES))
      .map(([name, length]) => `${name}: ${length} lines (allowed ${ALLOWED[name] ?? MAX_LINES})`);
    expect(tooLong).toEqual([]);
  });

  it(`takes a listed function off the list once it is back under ${MAX_LINES} lines (or gone)`, () => {
    const stale = Object.keys(ALLOWED).filter((name) => (lengths.get(name) ?? 0) <= MAX_LINES);
    expect(stale).toEqual([]);
  });
});
