import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { decide, inspect, PREREQUISITES, type Found } from '../../../scripts/test-prerequisites.mjs';

// `npm test` first checks what the suites need and installs what is missing when it may. Every
// combination of what a machine can lack and what its user may do, checked against the rules: it
// installs exactly what is missing, with apt-get update first, through `sudo -n` unless root;
// otherwise it stops with one line that names the command to run.
const ids = PREREQUISITES.map((each) => each.id);
const subsets = ids.reduce<Found['missing'][]>((all, id) => [...all, ...all.map((subset) => [...subset, id])], [[]]);
const machines: Found[] = subsets.flatMap((missing) =>
  [undefined, '/opt/chrome/chrome'].flatMap((chromiumPath) =>
    [true, false].flatMap((aptGet) =>
      [true, false].flatMap((root) => [true, false].map((sudo) => ({ missing, chromiumPath, aptGet, root, sudo }))),
    ),
  ),
);
const packagesFor = (missing: Found['missing']) => PREREQUISITES.filter((each) => missing.includes(each.id)).map((each) => each.package);

describe('npm test: what is missing -> what it does', () => {
  it('given every machine, should check 128 combinations', () => {
    expect(machines).toHaveLength(128);
  });

  it.each(machines.filter((found) => found.missing.length === 0))(
    'given nothing missing ($root root, $sudo sudo), should do nothing',
    (found) => {
      expect(decide(found)).toEqual({ action: 'none' });
    },
  );

  it('given something missing and root or passwordless sudo with apt-get, should run apt-get update, then install exactly what is missing', () => {
    const installable = machines.filter(
      (found) =>
        found.missing.length > 0 &&
        found.aptGet &&
        (found.root || found.sudo) &&
        !(found.chromiumPath && found.missing.includes('chromium')),
    );
    expect(installable.length).toBeGreaterThan(20);
    for (const found of installable) {
      const sudo = found.root ? [] : ['sudo', '-n'];
      expect(decide(found)).toEqual({
        action: 'install',
        packages: packagesFor(found.missing),
        commands: [
          [...sudo, 'apt-get', 'update'],
          [...sudo, 'apt-get', 'install', '-y', ...packagesFor(found.missing)],
        ],
        say: expect.stringContaining(packagesFor(found.missing).join(' ')),
      });
    }
  });

  it('given something missing that it may not install, should fail with one line naming the command', () => {
    const refused = machines.filter((found) => found.missing.length > 0 && (!found.aptGet || (!found.root && !found.sudo)));
    for (const found of refused) {
      const plan = decide(found);
      expect(plan.action).toBe('fail');
      if (plan.action !== 'fail') continue;
      expect(plan.message).not.toContain('\n');
      if (found.chromiumPath && found.missing.includes('chromium')) {
        expect(plan.message).toContain(`CHROMIUM_PATH is ${found.chromiumPath}`);
      } else if (found.aptGet) {
        expect(plan.message).toContain(`sudo apt-get update && sudo apt-get install -y ${packagesFor(found.missing).join(' ')}`);
      } else {
        expect(plan.message).toContain(`apt-get install -y ${packagesFor(found.missing).join(' ')}`);
      }
    }
  });

  it('given CHROMIUM_PATH set to a missing file, should fail naming it rather than install a browser elsewhere', () => {
    for (const found of machines.filter((each) => each.chromiumPath && each.missing.includes('chromium'))) {
      expect(decide(found)).toEqual({ action: 'fail', message: expect.stringContaining('/opt/chrome/chrome, which does not exist') });
    }
  });

  it('given this machine after the check (Chromium, Xvfb and PostgreSQL installed), should pass silently', () => {
    // `npm test` ran the check before the suites: nothing may be missing now (and so the script
    // below can only report, never install).
    expect(inspect().missing).toEqual([]);
    const output = execFileSync(process.execPath, [join(__dirname, '../../../scripts/test-prerequisites.mjs')], { encoding: 'utf8' });
    expect(output).toBe('');
  });
});
