// A runner instance in a process of its own, for the interrupt event tests that kill one: started
// with `node --import tsx`, on PostgreSQL (CKI_URL) or an embedded store (CKI_DIR), it raises an
// interrupt on thread CKI_THREAD and prints HOOK with the event each time its onInterruptEvent is
// called. The hook never settles: the event stays claimed, not delivered, until the process dies.
import { randomUUID } from 'node:crypto';
import type { RunAgentInput } from '@ag-ui/client';
import { lastValueFrom, toArray } from 'rxjs';
import { createInterruptRunner } from '../../src/runner';
import { interruptOutcome, runFinished, runStarted, ScriptedAgent } from './scripted-agent';

const threadId = process.env.CKI_THREAD!;
const runner = createInterruptRunner({
  ...(process.env.CKI_URL ? { url: process.env.CKI_URL } : { dataDir: process.env.CKI_DIR! }),
  expiry: false,
  onInterruptEvent: (event) => {
    process.stdout.write(`HOOK ${JSON.stringify({ key: event.key, type: event.type, attempt: event.attempt })}\n`);
    return new Promise<void>(() => {});
  },
  interruptEvents: { timeoutMs: Number(process.env.CKI_TIMEOUT_MS ?? 60_000) },
});
await runner.ready();
const agent = new ScriptedAgent((input) => [
  runStarted(input),
  runFinished(input, interruptOutcome({ id: 'i-crash', reason: 'tool_approval', message: 'Deploy v2?' })),
]);
const input = { threadId, runId: randomUUID(), messages: [], state: {}, tools: [], context: [], forwardedProps: {} } as RunAgentInput;
await lastValueFrom(runner.run({ threadId, agent, input }).pipe(toArray()));
process.stdout.write('RAISED\n');
setInterval(() => {}, 1 << 30);
