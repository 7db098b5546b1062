// A runner instance in a process of its own, for the expiry tests that kill one: started with
// `node --import tsx`, it prints READY once its store is open and its expiry sweeper runs, and
// RESUMED with the resume each time its agent is resumed by the expiry settler.
import { createInterruptRunner } from '../../src/runner';
import { runFinished, runStarted, ScriptedAgent, textMessage } from './scripted-agent';

const agent = new ScriptedAgent((input) => {
  const resume = (input as { resume?: unknown }).resume;
  if (resume) process.stdout.write(`RESUMED ${JSON.stringify(resume)}\n`);
  return [runStarted(input), ...textMessage(`m-${input.runId}`, 'Noted.'), runFinished(input)];
});
const runner = createInterruptRunner({ url: process.env.CKI_URL!, expiry: { agent: () => agent, checkEveryMs: 50 } });
await runner.ready();
process.stdout.write('READY\n');
process.on('SIGTERM', () => void runner.close().then(() => process.exit(0)));
setInterval(() => {}, 1 << 30);
