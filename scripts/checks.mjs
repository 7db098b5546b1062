// `npm test`'s checks before the suites: the type check, the lint and the build followed by the
// package check. Each is one process that keeps one core busy (tsc, ESLint, Prettier, the
// declaration builds); run one after another they left the second core of a 2-core machine idle
// for a minute or more. Here they run side by side, in lanes: a lane's steps run in order (the
// package check reads the build), and the lanes run at once. Each step's output is printed whole
// when it ends, under its name, so lanes never interleave; the exit code is 1 when any step failed.
import { spawn } from 'node:child_process';

/** The lanes, each a list of npm scripts run in order. */
const LANES = [['typecheck'], ['lint'], ['build', 'test:package']];

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs `npm run <script>`, resolving with its exit code and everything it printed. */
function runScript(script) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(npm, ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => (output += `${error.message}\n`));
    child.on('close', (code, signal) => resolve({ script, code: code ?? 1, signal, output, seconds: (Date.now() - started) / 1000 }));
  });
}

async function runLane(lane) {
  for (const script of lane) {
    const result = await runScript(script);
    const status = result.code === 0 ? 'ok' : `FAILED (exit ${result.signal ?? result.code})`;
    process.stdout.write(`\n> npm run ${script}: ${status} in ${result.seconds.toFixed(0)} s\n${result.output}`);
    if (result.code !== 0) return false;
  }
  return true;
}

const passed = await Promise.all(LANES.map(runLane));
if (passed.includes(false)) {
  console.error(`\nnpm test: ${passed.filter((ok) => !ok).length} of the checks failed (above); the suites did not run.`);
  process.exitCode = 1;
}
