import { startProcess, type RunningProcess } from '../helpers/start-process';

export type RunningDemo = RunningProcess;

/**
 * Starts the real `npm run demo` (page build + server) on a free port and resolves with its URL
 * once it prints it. The suite tests exactly what a newcomer runs.
 */
export function startDemo({ timeoutMs = 240_000 } = {}): Promise<RunningDemo> {
  return startProcess({
    command: 'npm',
    args: ['run', 'demo'],
    cwd: new URL('../..', import.meta.url).pathname,
    env: { PORT: '0', DEMO_MODEL: '' },
    ready: /copilotkit-interrupts demo: (http:\/\/127\.0\.0\.1:\d+)/,
    name: 'npm run demo',
    timeoutMs,
  });
}
