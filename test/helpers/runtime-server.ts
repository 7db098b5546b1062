import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ɵGLOBAL_STORE as inMemoryThreads, type CopilotRuntime } from '@copilotkit/runtime/v2';
import { createCopilotNodeListener } from '@copilotkit/runtime/v2/node';
import { closeGracefully } from './close-server';
import { atEndOfFile } from './end-of-file';

process.env.COPILOTKIT_TELEMETRY_DISABLED = 'true';

/** A CopilotRuntime served over HTTP on a loopback port, as an app's route serves it. */
export interface ServedRuntime {
  /** The runtime's base URL (`runtimeUrl` for the provider); an agent runs at `${url}/agent/<id>/run`. */
  url: string;
  close(): Promise<void>;
}

/**
 * CopilotKit's default runner (`InMemoryAgentRunner`) keeps every thread's events in one store per
 * process, shared by all runtimes in it: a thread id a later file reuses ('thread-a') would replay
 * this file's runs into its chat. The files of a worker share that process (and the module graph),
 * so the threads are forgotten when the file that served the runtime is done.
 */
export async function serveRuntime(runtime: CopilotRuntime): Promise<ServedRuntime> {
  atEndOfFile(() => inMemoryThreads.clear());
  const listener = createCopilotNodeListener({ runtime, basePath: '/api/copilotkit', cors: true, activateChannels: false });
  const server = createServer((req, res) => void listener(req, res));
  const close = closeGracefully(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/copilotkit`,
    close,
  };
}
