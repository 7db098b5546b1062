import { existsSync, readdirSync, readFileSync } from 'node:fs';
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
  const signalGroup = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      try {
        process.kill(-child.pid!, signal);
      } catch {
        resolve();
      }
    });
  // npm (the group leader) exits before the server it started has finished closing (the LangGraph
  // server writes its files as it stops): stop resolves once no process of the group runs, so the
  // caller may remove their folders.
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    await signalGroup(signal);
    for (let waited = 0; groupRunning(child.pid!) && waited < 30_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    if (groupRunning(child.pid!)) process.kill(-child.pid!, 'SIGKILL');
  };

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

/**
 * Whether a process of the group `pgid` still runs (zombies aside, which a container's first
 * process may leave unreaped). Read from /proc where there is one, else by signalling the group.
 */
function groupRunning(pgid: number): boolean {
  if (existsSync('/proc/self/stat')) {
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .some((pid) => {
        try {
          // "pid (comm) state ppid pgrp …": comm may hold spaces, so fields are read after its ')'.
          const [state, , pgrp] = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)!.split(' ');
          return Number(pgrp) === pgid && state !== 'Z';
        } catch {
          return false;
        }
      });
  }
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
