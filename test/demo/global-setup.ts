import type { TestProject } from 'vitest/node';
import { startDemoServer, type DemoServer } from '../../demo/server';

/** Slots unlike the relative fallback ones, so the test can tell the agent's slots apart. */
export const AGENT_SLOTS = [
  { label: 'Thursday 4:15 PM', iso: '2031-05-15T16:15:00.000Z' },
  { label: 'Friday 8:45 AM', iso: '2031-05-16T08:45:00.000Z' },
  { label: 'Saturday 11:30 AM', iso: '2031-05-17T11:30:00.000Z' },
  { label: 'Sunday 6:00 PM', iso: '2031-05-18T18:00:00.000Z' },
];

declare module 'vitest' {
  export interface ProvidedContext {
    demoUrl: string;
  }
}

let demo: DemoServer | undefined;

// The demo server runs in the Node main process (real CopilotRuntime, real Mastra); the jsdom
// test renders the page component against it over HTTP.
export async function setup(project: TestProject) {
  // The page tests talk to the Mastra agent; without the LangGraph server this process can exit.
  demo = await startDemoServer({ port: 0, timeSlots: () => AGENT_SLOTS, approvals: { refreshesToApprove: 1 }, langgraph: false });
  project.provide('demoUrl', demo.url);
}

export async function teardown() {
  await demo?.close();
}
