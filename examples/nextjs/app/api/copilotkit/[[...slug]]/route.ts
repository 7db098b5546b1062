import { CopilotRuntime, createCopilotRuntimeHandler } from '@copilotkit/runtime/v2';
import { normalizeInterrupts } from 'copilotkit-interrupts/runtime';
import { ScriptedAgent } from '../../../../lib/scripted-agent';

// The v2 client calls `GET /api/copilotkit/info` and `POST /api/copilotkit/agent/<id>/run`:
// the optional catch-all `[[...slug]]` routes them all to one handler.
const runtime = new CopilotRuntime({
  agents: { default: new ScriptedAgent({ agentId: 'default' }).use(normalizeInterrupts()) },
});
const handler = createCopilotRuntimeHandler({ runtime, basePath: '/api/copilotkit', activateChannels: false });

export const GET = handler;
export const POST = handler;
