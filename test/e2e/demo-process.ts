import { spawn, type ChildProcess } from 'node:child_process';

export interface RunningDemo {
  url: string;
  /** Everything the demo printed, for failure messages. */
  output: () => string;
  stop(): Promise<void>;
}

const URL_LINE = /copilotkit-interrupts demo: (http:\/\/127\.0\.0\.1:\d+)/;

/**
 * Starts the real `npm run demo` (page build + server) on a free port and resolves with its URL
 * once it prints it. The suite tests exactly what a newcomer runs.
 */
export function startDemo({ timeoutMs = 240_000 } = {}): Promise<RunningDemo> {
  const child: ChildProcess = spawn('npm', ['run', 'demo'], {
    cwd: new URL('../..', import.meta.url).pathname,
    env: { ...process.env, PORT: '0', DEMO_MODEL: '', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so stop() ends npm and the server together
  });
  let output = '';
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        resolve();
      }
    });

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`npm run demo printed no URL within ${timeoutMs / 1000} s. Output:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = URL_LINE.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1], output: () => output, stop });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm run demo exited with code ${code} before printing its URL. Output:\n${output}`));
    });
  });
}
