import { CopilotRuntime, createCopilotRuntimeHandler } from '@copilotkit/runtime/v2';
import { normalizeInterrupts } from 'copilotkit-interrupts/runtime';
import { ScriptedAgent } from '../../../../lib/scripted-agent';

// The v2 client calls `GET /api/copilotkit/info` and `POST /api/copilotkit/agent/<id>/run`:
// the optional catch-all `[[...slug]]` routes them all to one handler.
// normalizeInterrupts() signs the interrupt ids it sends to the browser. In production the server
// needs a secret (`next build` does not): at least 32 random characters, the same on every server
// (e.g. `openssl rand -hex 32`). Without one, every run ends with an interrupts_secret_missing error.
const runtime = new CopilotRuntime({
  agents: {
    default: new ScriptedAgent({ agentId: 'default' }).use(normalizeInterrupts({ secret: process.env.COPILOTKIT_INTERRUPTS_SECRET })),
  },
});
const handler = createCopilotRuntimeHandler({ runtime, basePath: '/api/copilotkit', activateChannels: false });

export const GET = handler;
export const POST = handler;
