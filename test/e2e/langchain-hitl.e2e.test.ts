import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, type LaunchedBrowser } from '../helpers/chromium';
import { DemoPage } from './demo-page';
import { startDemo, type RunningDemo } from './demo-process';

// The demo's LangGraph page, in Chromium against the real `npm run demo`: the release pill makes a
// LangChain createAgent agent plan three tool calls gated by humanInTheLoopMiddleware.
let demo: RunningDemo;
let chromium: LaunchedBrowser;
let tab: DemoPage | undefined;

beforeAll(async () => {
  [demo, chromium] = await Promise.all([startDemo(), launchChromium()]);
});
afterAll(async () => {
  await chromium?.close();
  await demo?.stop();
});
afterEach(async () => {
  const errors = tab?.errors ?? [];
  await tab?.page.close();
  tab = undefined;
  expect(errors).toEqual([]);
});

async function releaseCards() {
  tab = await DemoPage.open(chromium.browser, `${demo.url}/?agent=langgraph`);
  await tab.page.getByTestId('copilot-suggestion').filter({ hasText: 'Release v2 (three approvals)' }).click();
  await tab.page.getByRole('group', { name: '3 approvals wait for you' }).waitFor({ timeout: 30_000 });
  // The bar's name counts the approvals still waiting.
  const bar = tab.page.getByRole('group', { name: /approvals wait for you$/ });
  const card = (tool: string) => tab!.page.getByTestId('approval-card').filter({ hasText: tool });
  return { tab, bar, tag: card('tag_release'), email: card('send_email'), branch: card('delete_branch') };
}

describe('LangChain humanInTheLoopMiddleware on the demo LangGraph page', () => {
  it('given the release pill, three cards offer only what each call allows, and Approve all runs the three tools in one resume', async () => {
    const { tab, bar, tag, email, branch } = await releaseCards();
    expect(await tag.getByTestId('approval-reject').count()).toBe(0);
    expect(await tag.getByTestId('approval-edit-open').count()).toBe(1);
    expect(await email.getByTestId('approval-reject').count()).toBe(1);
    expect(await branch.getByTestId('approval-edit-open').count()).toBe(0);
    await tab.screenshot('langgraph-hitl-01-three-cards');

    await bar.getByRole('button', { name: 'Approve all (3)' }).click();
    await tab.waitForAnswer(
      /Done\. tag_release: Tagged v2\.0\.0\. \| send_email: Sent .* \| delete_branch: Deleted the branch release-candidate\./,
    );
    expect(tab.resumeRuns).toHaveLength(1);
    expect(tab.resumeRuns[0].resume?.map((entry) => entry.payload)).toEqual([{ approved: true }, { approved: true }, { approved: true }]);
    await tab.screenshot('langgraph-hitl-02-approved');
  });

  it('given the email rejected with a reason and the rest approved, no tool runs and the agent reads the reason', async () => {
    const { tab, bar, email } = await releaseCards();
    await email.getByLabel('Reason for rejecting (optional)').fill('Not before QA');
    await email.getByTestId('approval-reject').click();
    await bar.getByRole('button', { name: 'Approve all (2)' }).click();
    await tab.waitForAnswer(/Done\. send_email: Not before QA/);
    expect(tab.resumeRuns).toHaveLength(1);
  });
});
