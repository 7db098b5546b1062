// `npm test` runs this first: the suites drive a real Chromium (headless, and headful on an Xvfb
// display) and start their own PostgreSQL cluster from the server binaries. What is missing is
// installed with apt-get when this user may (root, or sudo without a password); otherwise the run
// stops at once with the one command that installs it, instead of failing suites minutes later.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** What the suites need, the Debian package that provides each, and how to say it. */
export const PREREQUISITES = [
  { id: 'chromium', package: 'chromium', name: 'Chromium' },
  { id: 'xvfb', package: 'xvfb', name: 'Xvfb' },
  { id: 'postgresql', package: 'postgresql', name: "PostgreSQL's server (initdb)" },
];

/**
 * What to do, from what was found (a pure function: the tests call it with every combination).
 *
 * @param {object} found
 * @param {string[]} found.missing ids from PREREQUISITES that were not found
 * @param {string | undefined} found.chromiumPath CHROMIUM_PATH when it is set (installing Debian's
 *   Chromium cannot put a browser there)
 * @param {boolean} found.aptGet whether apt-get is on the PATH
 * @param {boolean} found.root whether this process runs as root
 * @param {boolean} found.sudo whether `sudo` runs without asking for a password
 * @returns {{ action: 'none' } | { action: 'install', packages: string[], commands: string[][], say: string }
 *   | { action: 'fail', message: string }}
 */
export function decide({ missing, chromiumPath, aptGet, root, sudo }) {
  if (missing.length === 0) return { action: 'none' };
  if (missing.includes('chromium') && chromiumPath) {
    return {
      action: 'fail',
      message: `npm test: CHROMIUM_PATH is ${chromiumPath}, which does not exist; point it at a Chromium binary, or unset it to use /usr/bin/chromium.`,
    };
  }
  const wanted = PREREQUISITES.filter((each) => missing.includes(each.id));
  const packages = wanted.map((each) => each.package);
  const names = wanted.map((each) => each.name).join(', ');
  if (!aptGet) {
    return {
      action: 'fail',
      message: `npm test needs ${names}, which this machine lacks and has no apt-get to install; install them with the system's package manager (on Debian: apt-get install -y ${packages.join(' ')}).`,
    };
  }
  const prefix = root ? [] : ['sudo', '-n'];
  if (!root && !sudo) {
    return {
      action: 'fail',
      message: `npm test needs ${names}; install them with: sudo apt-get update && sudo apt-get install -y ${packages.join(' ')}`,
    };
  }
  return {
    action: 'install',
    packages,
    commands: [
      [...prefix, 'apt-get', 'update'],
      [...prefix, 'apt-get', 'install', '-y', ...packages],
    ],
    say: `npm test needs ${names}: installing ${packages.join(' ')} with apt-get…`,
  };
}

const onPath = (command) => (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, command)));

function postgresInstalled() {
  const root = '/usr/lib/postgresql';
  return existsSync(root) && readdirSync(root).some((version) => existsSync(join(root, version, 'bin', 'initdb')));
}

/** What this machine has, in the shape `decide` takes. */
export function inspect() {
  const chromiumPath = process.env.CHROMIUM_PATH || undefined;
  const missing = [];
  if (!existsSync(chromiumPath ?? '/usr/bin/chromium')) missing.push('chromium');
  // The headful test starts `Xvfb` from the PATH, so that is where it must be.
  if (!onPath('Xvfb')) missing.push('xvfb');
  if (!postgresInstalled()) missing.push('postgresql');
  const root = process.getuid?.() === 0;
  let sudo = false;
  if (!root && missing.length > 0 && onPath('sudo')) {
    try {
      execFileSync('sudo', ['-n', 'true'], { stdio: 'ignore' });
      sudo = true;
    } catch {
      sudo = false;
    }
  }
  return { missing, chromiumPath, aptGet: onPath('apt-get'), root, sudo };
}

function main() {
  const plan = decide(inspect());
  if (plan.action === 'none') return 0;
  if (plan.action === 'fail') {
    console.error(plan.message);
    return 1;
  }
  console.log(plan.say);
  for (const command of plan.commands) {
    const result = spawnSync(command[0], command.slice(1), {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (result.status !== 0) {
      console.error(
        `npm test: \`${command.join(' ')}\` failed (exit ${result.status ?? result.signal}); run it yourself, then npm test again.`,
      );
      return 1;
    }
  }
  const still = decide(inspect());
  if (still.action !== 'none') {
    console.error(
      still.action === 'fail' ? still.message : `npm test: ${plan.packages.join(' ')} installed, but some are still not found.`,
    );
    return 1;
  }
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main();
