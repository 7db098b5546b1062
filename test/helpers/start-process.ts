import { spawn, type ChildProcess } from 'node:child_process';

export interface RunningProcess {
  /** The first capture group of `ready` (a URL, say). */
  url: string;
  /** Everything the process printed, for failure messages. */
  output: () => string;
  /** Sends `signal` (default SIGTERM) to the whole group and resolves once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface StartProcessOptions {
  command: string;
  args: string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Printed once the process is ready; its first group is the `url`. */
  ready: RegExp;
  /** What to call the process in error messages. */
  name: string;
  timeoutMs?: number;
}

/**
 * Starts a server process in its own process group and resolves once it prints `ready`.
 * `stop()` ends the whole group (npm and the server it started alike).
 */
export function startProcess({ command, args, cwd, env, ready, name, timeoutMs = 240_000 }: StartProcessOptions): Promise<RunningProcess> {
  const child: ChildProcess = spawn(command, args, {
    cwd,
    env: { ...process.env, FORCE_COLOR: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const stop = (signal: NodeJS.Signals = 'SIGTERM') =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      try {
        process.kill(-child.pid!, signal);
      } catch {
        resolve();
      }
    });

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${name} printed nothing ready within ${timeoutMs / 1000} s. Output:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1], output: () => output, stop });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with code ${code} before it was ready. Output:\n${output}`));
    });
  });
}
