import type { BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateCandidateSlots } from '../../src/time-slots';
import { launchChromium, launchChromiumBrowser, type Browser, type LaunchedBrowser } from '../helpers/chromium';
import { DemoPage } from './demo-page';
import { startDemo, type RunningDemo } from './demo-process';

// The QA checklist the cards are accepted against and every card flow, against `npm run demo`.
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
  // No uncaught console errors or page errors in any flow.
  const errors = tab?.errors ?? [];
  await tab?.page.close();
  tab = undefined;
  expect(errors).toEqual([]);
});

// The flows run on both of the demo's agents: the Mastra one and the LangGraph one.
const AGENTS = [
  { name: 'Mastra', query: '', shots: '' },
  { name: 'LangGraph', query: '?agent=langgraph', shots: 'langgraph-' },
];
let agent = AGENTS[0];

async function openDemo(): Promise<DemoPage> {
  tab = await DemoPage.open(chromium.browser, `${demo.url}/${agent.query}`);
  const screenshot = tab.screenshot.bind(tab);
  tab.screenshot = (name: string) => screenshot(`${agent.shots}${name}`);
  return tab;
}

/** The labels the agent's tool sends: the four relative candidate slots of today. */
const toolSlotLabels = () => generateCandidateSlots().map((slot) => slot.label);

describe.each(AGENTS.map((each) => [each.name, each] as const))('%s agent', (_name, current) => {
  beforeAll(() => {
    agent = current;
  });

  describe('first load', () => {
    it('renders the chat within 3 s in a centred full-height column, empty, with no picker', async () => {
      const started = Date.now();
      const { page, input } = await openDemo();
      await input.waitFor({ state: 'visible', timeout: 3_000 });
      expect(Date.now() - started).toBeLessThan(3_000);

      await expect.poll(() => input.getAttribute('placeholder')).toMatch(/\S/);
      const viewport = page.viewportSize()!;
      const chat = await page.getByTestId('copilot-chat').first().boundingBox();
      expect(chat).not.toBeNull();
      expect(chat!.height).toBeGreaterThanOrEqual(viewport.height * 0.9);
      const leftGap = chat!.x;
      const rightGap = viewport.width - (chat!.x + chat!.width);
      expect(Math.abs(leftGap - rightGap)).toBeLessThanOrEqual(2);
      expect(chat!.width).toBeLessThan(viewport.width);

      expect(await page.getByTestId('copilot-user-message').count()).toBe(0);
      expect(await page.getByTestId('copilot-assistant-message').count()).toBe(0);
      expect(await page.getByTestId('time-picker-card').count()).toBe(0);
      await tab!.screenshot('01-first-load');
    });

    it('shows the suggestion pills with the verbatim titles', async () => {
      const { page } = await openDemo();
      const pills = page.getByTestId('copilot-suggestion');
      await pills.first().waitFor();
      const titles = await pills.allInnerTexts();
      expect(titles.map((t) => t.trim())).toEqual(expect.arrayContaining(['Book a call with sales', 'Schedule a 1:1 with Alice']));
    });
  });

  describe('plain conversation', () => {
    it('answers "Hello" with plain text and no picker', async () => {
      const demoTab = await openDemo();
      await demoTab.send('Hello');
      await demoTab.waitForAnswer(/\S/);
      expect(await demoTab.page.getByTestId('time-picker-card').count()).toBe(0);
      expect(demoTab.runs).toHaveLength(1);
    });

    it('answers "What\'s the weather?" with no picker', async () => {
      const demoTab = await openDemo();
      await demoTab.send("What's the weather?");
      await demoTab.waitForAnswer(/weather/i);
      expect(await demoTab.page.getByTestId('time-picker-card').count()).toBe(0);
    });

    it('does nothing when the message is empty', async () => {
      const demoTab = await openDemo();
      await demoTab.input.fill('');
      await demoTab.input.press('Enter');
      await demoTab.page
        .getByTestId('copilot-send-button')
        .click({ force: true })
        .catch(() => undefined);
      // Give a stray send the time to show up before checking nothing happened.
      await demoTab.page.waitForTimeout(500);
      expect(await demoTab.page.getByTestId('copilot-user-message').count()).toBe(0);
      expect(demoTab.runs).toHaveLength(0);
    });
  });

  describe('booking: the time picker', () => {
    it('renders inline in the transcript with the tool’s slots, and a pick resumes the agent', async () => {
      const demoTab = await openDemo();
      const { page } = demoTab;
      await page.getByTestId('copilot-suggestion').filter({ hasText: 'Book a call with sales' }).click();

      const card = demoTab.transcript.getByTestId('time-picker-card');
      await card.waitFor();
      expect(await page.locator('body > [data-testid="time-picker-card"]').count()).toBe(0);
      await expect.poll(() => card.textContent()).toMatch(/Book a call/);
      expect(await card.textContent()).toContain('Pick a time that works for you.');
      const slots = card.getByTestId('time-picker-slot');
      expect(await slots.allInnerTexts()).toEqual(toolSlotLabels());
      expect(await card.getByTestId('time-picker-cancel').textContent()).toContain('None of these work');
      await demoTab.screenshot('02-picker');

      // Continuity: from the click until the agent has answered, every DOM change leaves either the
      // interactive card or its read-only "Booked" state in the transcript.
      await page.evaluate(() => {
        const w = window as unknown as { gaps: number; observer: MutationObserver };
        w.gaps = 0;
        const hasCard = () => document.querySelector('[data-testid="time-picker-card"], [data-testid="time-picker-picked"]') !== null;
        w.observer = new MutationObserver(() => {
          if (!hasCard()) w.gaps++;
        });
        w.observer.observe(document.body, { childList: true, subtree: true });
      });
      const label = toolSlotLabels()[2];
      await slots.filter({ hasText: label }).click();
      const picked = demoTab.transcript.getByTestId('time-picker-picked');
      await picked.waitFor();
      expect(await picked.textContent()).toContain('Booked');
      expect(await picked.getByTestId('read-only-answer').textContent()).toBe(label);
      await demoTab.waitForAnswer(new RegExp(`Scheduled ".+" for ${label}`));
      const gaps = await page.evaluate(() => {
        const w = window as unknown as { gaps: number; observer: MutationObserver };
        w.observer.disconnect();
        return w.gaps;
      });
      expect(gaps).toBe(0);
      expect(await page.getByTestId('time-picker-card').count()).toBe(0);
      expect(await picked.isVisible()).toBe(true);

      expect(demoTab.resumeRuns).toHaveLength(1);
      expect(demoTab.resumeRuns[0].resume).toEqual([
        expect.objectContaining({ status: 'resolved', payload: { chosen_time: expect.any(String), chosen_label: label } }),
      ]);
      await demoTab.screenshot('03-booked');
    });

    it('shows "With Alice" for the 1:1, and "None of these work" cancels', async () => {
      const demoTab = await openDemo();
      await demoTab.page.getByTestId('copilot-suggestion').filter({ hasText: 'Schedule a 1:1 with Alice' }).click();
      const card = demoTab.transcript.getByTestId('time-picker-card');
      await card.waitFor();
      await expect.poll(() => card.textContent()).toContain('With Alice');

      await card.getByTestId('time-picker-cancel').click();
      const cancelled = demoTab.transcript.getByTestId('time-picker-cancelled');
      await cancelled.waitFor();
      expect(await cancelled.textContent()).toContain('Cancelled');
      expect(await cancelled.textContent()).toContain('No time picked.');
      await demoTab.waitForAnswer(/no meeting was scheduled|nothing was scheduled|not scheduled/i);
      expect(demoTab.resumeRuns[0].resume).toEqual([expect.objectContaining({ status: 'resolved', payload: { cancelled: true } })]);
      await demoTab.screenshot('04-cancelled');
    });

    it('submits once on a mouse double click, and its second click starts nothing else', async () => {
      const demoTab = await openDemo();
      const { page } = demoTab;
      await demoTab.send('Book an intro call with the sales team to discuss pricing.');
      const slot = demoTab.transcript.getByTestId('time-picker-slot').last();
      await slot.waitFor();
      // A real double click: the compact read-only card is shorter than the picker, so the second
      // click lands on whatever moved up under the pointer. It belongs to the same gesture.
      await slot.dblclick();
      await demoTab.waitForAnswer(/Scheduled ".+" for/);
      expect(demoTab.resumeRuns).toHaveLength(1);
      expect(
        await demoTab
          .assistantMessages()
          .filter({ hasText: /Scheduled ".+" for/ })
          .count(),
      ).toBe(1);
      // No suggestion was sent and no other card answered: the user's one message, two runs.
      expect(await page.getByTestId('copilot-user-message').count()).toBe(1);
      expect(demoTab.runs).toHaveLength(2);
    });

    it('multi-turn: a second booking gets a fresh picker below the first, resolved one', async () => {
      const demoTab = await openDemo();
      const { page } = demoTab;
      const labels = toolSlotLabels();
      await demoTab.send('Book an intro call with the sales team to discuss pricing.');
      await demoTab.transcript.getByTestId('time-picker-slot').filter({ hasText: labels[0] }).click();
      await demoTab.waitForAnswer(new RegExp(`for ${labels[0]}`));

      await demoTab.send('Schedule a 1:1 with Alice next week to review Q2 goals.');
      const second = demoTab.transcript.getByTestId('time-picker-card');
      await second.waitFor();
      const first = demoTab.transcript.getByTestId('time-picker-picked');
      expect(await first.count()).toBe(1);
      expect(await first.textContent()).toContain(labels[0]);
      const order = await page.evaluate(() => {
        const a = document.querySelector('[data-testid="time-picker-picked"]')!;
        const b = document.querySelector('[data-testid="time-picker-card"]')!;
        return a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING;
      });
      expect(order).toBeTruthy();

      await second.getByTestId('time-picker-slot').filter({ hasText: labels[3] }).click();
      await demoTab.waitForAnswer(new RegExp(`for ${labels[3]}`));
      expect(await demoTab.transcript.getByTestId('time-picker-picked').count()).toBe(2);
      expect(demoTab.resumeRuns).toHaveLength(2);
      await demoTab.screenshot('05-multi-turn');
    });
  });

  describe('approval', () => {
    // The ticket waits for whoever is on call: Dana asks for it here, and answers it herself
    // (demo-users.e2e.test.ts has Ana ask and Dana approve).
    beforeEach(() => chromium.browser.addCookies([{ name: 'cki-demo-user', value: 'dana', url: demo.url }]));
    afterEach(() => chromium.browser.clearCookies());

    it('shows the ticket, refreshes until approved, and keeps the read-only echo after the agent answers', async () => {
      const demoTab = await openDemo();
      await demoTab.page.getByTestId('copilot-suggestion').filter({ hasText: 'Request a deploy approval' }).click();
      const card = demoTab.transcript.getByTestId('approval-card');
      await card.waitFor();
      await expect.poll(() => card.getByTestId('approval-status').textContent()).toMatch(/pending/i);

      const refresh = card.getByTestId('approval-refresh');
      const resolved = demoTab.transcript.getByTestId('approval-card-resolved');
      for (let attempt = 0; attempt < 10 && (await resolved.count()) === 0; attempt++) {
        await refresh.waitFor();
        await expect.poll(() => refresh.isEnabled(), { timeout: 5_000 }).toBe(true);
        await refresh.click();
        await resolved.waitFor({ timeout: 3_000 }).catch(() => undefined);
      }
      await resolved.waitFor();
      expect(await resolved.getByTestId('approval-status').textContent()).toMatch(/approved/i);
      await demoTab.waitForAnswer(/approv/i);
      expect(await resolved.isVisible()).toBe(true);
      expect(demoTab.resumeRuns).toHaveLength(1);
      await demoTab.screenshot('06-approval');
    });
  });

  describe('direct approval with edits', () => {
    it('edits the deploy arguments in the generated form, approves, and the tool runs with the edits', async () => {
      const demoTab = await openDemo();
      await demoTab.send('Deploy v2 to staging');
      const card = demoTab.transcript.getByTestId('approval-card');
      await card.waitFor();
      expect(await card.textContent()).toContain('deploy');

      await card.getByTestId('approval-edit-open').click();
      const replicas = card.getByLabel(/Replicas/);
      expect(await replicas.inputValue()).toBe('2');
      await replicas.fill('4');
      await card.getByLabel(/Environment/).selectOption('production');
      await card.getByTestId('approval-approve-edited').click();

      await demoTab.waitForAnswer(/Deployed v2 to production with 4 replicas\./);
      expect(demoTab.resumeRuns.map((run) => run.resume?.[0]?.payload)).toEqual([
        { approved: true, editedArgs: { version: 'v2', environment: 'production', replicas: 4 } },
      ]);
      // The transcript's card is compact: the diff is in its details.
      const edited = demoTab.transcript.getByTestId('approval-card-resolved').last();
      await edited.getByRole('button', { name: 'Details' }).click();
      const diff = edited.getByTestId('approval-edited-args');
      expect(await diff.textContent()).toContain('replicas: 2 → 4');
      expect(await diff.textContent()).toContain('environment: "staging" → "production"');
      await demoTab.screenshot('07-approval-edited');
    });

    it('rejects with a reason: the tool does not run and the agent says why', async () => {
      const demoTab = await openDemo();
      await demoTab.send('Deploy v3 to production');
      const card = demoTab.transcript.getByTestId('approval-card');
      await card.waitFor();
      await card.getByLabel('Reason (optional)').fill('Code freeze');
      await card.getByTestId('approval-reject').click();

      await demoTab.waitForAnswer(/rejected .*Code freeze/);
      expect(await demoTab.transcript.textContent()).not.toContain('Deployed v3');
      expect(await demoTab.transcript.getByTestId('approval-status').last().textContent()).toMatch(/rejected/i);
    });
  });

  describe('questions', () => {
    it('answers the questions, one through Others, and keeps the answers visible; a reload keeps the echoes', async () => {
      const demoTab = await openDemo();
      const { page } = demoTab;
      await page
        .getByTestId('copilot-suggestion')
        .filter({ hasText: /question/i })
        .click();
      const card = demoTab.transcript.getByTestId('user-question-card');
      await card.waitFor();

      // The demo asks three questions: single choice, multiple choice, free text (demo/server/scripted-model.ts).
      expect(await card.textContent()).toMatch(/1\s*\/\s*3/);
      await card.getByTestId('user-question-option').filter({ hasText: 'Web app' }).click();
      // A single-choice preset moves on by itself; the second question is multiple choice.
      await expect.poll(() => card.textContent()).toMatch(/2\s*\/\s*3/);
      await card.getByTestId('user-question-option').filter({ hasText: 'EU' }).click();
      await card.getByTestId('user-question-option').filter({ hasText: 'Others' }).click();
      await card.getByTestId('user-question-others-input').fill('Antarctica');
      await card.getByTestId('user-question-next').click();
      await expect.poll(() => card.textContent()).toMatch(/3\s*\/\s*3/);
      await card.getByTestId('user-question-text-input').fill('Next quarter');
      await card.getByTestId('user-question-submit').click();

      const answered = demoTab.transcript.getByTestId('user-question-answered');
      await answered.waitFor();
      for (const text of ['Web app', 'EU', 'Antarctica', 'Next quarter']) expect(await answered.textContent()).toContain(text);
      await demoTab.waitForAnswer(/answered/i);
      expect(await answered.isVisible()).toBe(true);
      const [resume] = demoTab.resumeRuns;
      expect(JSON.stringify(resume.resume)).toContain('{"label":"others","description":"Antarctica"}');
      await demoTab.screenshot('07-questions');

      await page.reload();
      const restored = demoTab.transcript.getByTestId('user-question-answered');
      await restored.waitFor();
      expect(await restored.textContent()).toContain('Antarctica');
      await demoTab.screenshot('08-after-reload');
    });
  });

  describe('reload after several answers', () => {
    it('draws each card exactly once after a reload, whatever its answer: booked, cancelled, dismissed (and expired on Mastra)', async () => {
      const demoTab = await openDemo();
      const { page } = demoTab;
      const labels = toolSlotLabels();
      const replies = (pattern: RegExp) => demoTab.assistantMessages().filter({ hasText: pattern }).count();
      const openPicker = async () => {
        await demoTab.send('Book an intro call with the sales team to discuss pricing.');
        const card = demoTab.transcript.getByTestId('time-picker-card');
        await card.waitFor();
        return card;
      };

      // Booked twice.
      for (const label of labels.slice(0, 2)) {
        await (await openPicker()).getByTestId('time-picker-slot').filter({ hasText: label }).click();
        await demoTab.waitForAnswer(new RegExp(`for ${label}`));
      }
      // Cancelled: "None of these work".
      await (await openPicker()).getByTestId('time-picker-cancel').click();
      await demoTab.waitForAnswer(/no meeting was scheduled|nothing was scheduled|not scheduled/i);
      // Dismissed: the user chats on while the picker is open. Both agents answer the message with
      // a greeting; the LangGraph graph first resumes the picker's node, which says that nothing was
      // scheduled.
      await openPicker();
      const notScheduled = /no meeting was scheduled|nothing was scheduled|not scheduled/i;
      const [greetedFirst, cancelledFirst] = [await replies(/demo agent/), await replies(notScheduled)];
      await demoTab.send('Hello?');
      await expect.poll(() => replies(/demo agent/), { timeout: 30_000 }).toBe(greetedFirst + 1);
      if (agent.name !== 'Mastra') await expect.poll(() => replies(notScheduled), { timeout: 30_000 }).toBe(cancelledFirst + 1);
      await demoTab.transcript.getByTestId('time-picker-cancelled').filter({ hasText: 'Dismissed' }).waitFor();
      // Expired: the quick poll runs out, then the user chats on (the Mastra agent has the poll).
      if (agent.name === 'Mastra') {
        await demoTab.send('Run a quick poll');
        await demoTab.transcript.getByTestId('user-question-card').waitFor();
        await demoTab.transcript.getByText('Expired', { exact: true }).first().waitFor({ timeout: 15_000 });
        const greeted = await replies(/demo agent/);
        await demoTab.send('Hello again');
        await expect.poll(() => replies(/demo agent/), { timeout: 30_000 }).toBe(greeted + 1);
      }

      const cards = () =>
        demoTab.transcript
          .locator('[data-interrupt-id]')
          .evaluateAll((nodes) =>
            nodes.map((node) => [node.getAttribute('data-interrupt-id'), node.getAttribute('data-interrupt-status')]),
          );
      const before = await cards();
      const statuses = before.map(([, status]) => status);
      expect(statuses.filter((status) => status === 'resolved').length).toBeGreaterThanOrEqual(3);
      expect(statuses).toContain('dismissed');
      if (agent.name === 'Mastra') expect(statuses).toContain('expired');
      expect(new Set(before.map(([id]) => id)).size).toBe(before.length);
      const messages = await demoTab.assistantMessages().count();

      await page.reload();
      await expect.poll(() => demoTab.assistantMessages().count(), { timeout: 30_000 }).toBe(messages);
      await expect.poll(cards, { timeout: 10_000 }).toEqual(before);
      // Still so once everything has settled: no card is drawn a second time.
      await page.waitForTimeout(1_000);
      expect(await cards()).toEqual(before);
      await demoTab.screenshot('09-reload-after-several-answers');
    });
  });
});

// Steer-away and expiry run on the Mastra agent (the session's cancel for LangGraph reaches the
// node as the bridge's cancel value; the demo graph has no expiring poll).
describe('Mastra agent: steer-away and expiry', () => {
  beforeAll(() => {
    agent = AGENTS[0];
  });

  it('steers away: a chat message while the picker is open dismisses it, the agent gets cancelled, and the message gets its reply', async () => {
    const demoTab = await openDemo();
    await demoTab.send('Book an intro call with the sales team to discuss pricing.');
    const card = demoTab.transcript.getByTestId('time-picker-card');
    await card.waitFor();
    await demoTab.send('Hello?');
    await demoTab.waitForAnswer(/demo agent/);
    // The card's own badge says it: the card is in status `dismissed`, not "Cancelled".
    const dismissed = demoTab.transcript.getByTestId('time-picker-cancelled').filter({ hasText: 'Dismissed' });
    await dismissed.waitFor();
    await demoTab.screenshot('05-steer-away-dismissed');

    expect(demoTab.resumeRuns).toHaveLength(1);
    expect(demoTab.resumeRuns[0].resume).toEqual([{ interruptId: expect.any(String), status: 'cancelled' }]);
    expect(await demoTab.transcript.getByTestId('time-picker-slot').count()).toBe(0);
    expect(
      await demoTab
        .assistantMessages()
        .filter({ hasText: /Scheduled/ })
        .count(),
    ).toBe(0);
  });

  describe('expiry', () => {
    it('shows an unanswered quick poll as Expired, and the agent gets cancelled with the next message, which gets its reply', async () => {
      const demoTab = await openDemo();
      await demoTab.send('Run a quick poll');
      const card = demoTab.transcript.getByTestId('user-question-card');
      await card.waitFor();
      // The poll accepts answers for QUICK_POLL_MS (4 s); then the card turns read-only "Expired".
      await demoTab.transcript.getByText('Expired', { exact: true }).first().waitFor({ timeout: 15_000 });
      await demoTab.screenshot('08-quick-poll-expired');
      expect(demoTab.resumeRuns).toHaveLength(0);

      await demoTab.send('Hello?');
      await demoTab.waitForAnswer(/demo agent/);
      expect(demoTab.resumeRuns).toHaveLength(1);
      expect(demoTab.resumeRuns[0].resume).toEqual([{ interruptId: expect.any(String), status: 'cancelled' }]);
    });
  });

  describe('inbox', () => {
    it('lists a thread whose card waits while another thread is open; picking it brings the card back, and answering it empties the entry', async () => {
      const demoTab = await openDemo();
      const { page } = demoTab;
      const inbox = page.getByRole('region', { name: /Waiting for you/ });

      // Thread A: the agent asks for a time and waits.
      await demoTab.send('Book an intro call with the sales team to discuss pricing.');
      await demoTab.transcript.getByTestId('time-picker-card').waitFor();
      const threadA = demoTab.runs[0].threadId!;
      expect(threadA).toMatch(/\S/);

      // Thread B: a new conversation, answered at once.
      await page.getByRole('button', { name: 'New conversation' }).click();
      await expect.poll(() => demoTab.transcript.getByTestId('time-picker-card').count()).toBe(0);
      await demoTab.send('Hello');
      await demoTab.waitForAnswer(/demo agent/);
      const threadB = demoTab.runs.at(-1)!.threadId!;
      expect(threadB).not.toBe(threadA);

      // The inbox lists A (what it asks, how long it has waited), not B.
      const entryA = inbox.locator(`[data-testid="pending-thread"][data-thread-id="${threadA}"]`);
      await entryA.waitFor({ timeout: 15_000 });
      expect(await entryA.textContent()).toContain('Intro call with the sales team');
      expect(await entryA.textContent()).toMatch(/waiting/);
      expect(await inbox.locator(`[data-thread-id="${threadB}"]`).count()).toBe(0);
      await demoTab.screenshot('10-inbox-lists-thread-a');

      // Picking A switches the chat to it, the card open and ready.
      await entryA.click();
      const card = demoTab.transcript.getByTestId('time-picker-card');
      await card.waitFor({ timeout: 15_000 });
      expect(await demoTab.transcript.textContent()).toContain('Book an intro call with the sales team');
      expect(await entryA.getAttribute('aria-current')).toBe('true');

      // Answering it removes A from the inbox.
      const label = toolSlotLabels()[1];
      await card.getByTestId('time-picker-slot').filter({ hasText: label }).click();
      await demoTab.waitForAnswer(new RegExp(`Scheduled ".+" for ${label}`));
      expect(demoTab.resumeRuns.at(-1)?.threadId).toBe(threadA);
      await entryA.waitFor({ state: 'detached', timeout: 15_000 });
      await demoTab.screenshot('11-inbox-after-answer');
    });
  });
});

// The demo's LangGraph page: the release pill makes a LangChain createAgent agent plan three tool
// calls gated by humanInTheLoopMiddleware. (On this file's demo process: one start for the suite.)
describe('LangGraph agent: LangChain humanInTheLoopMiddleware', () => {
  beforeAll(() => {
    agent = AGENTS[1];
  });

  async function releaseCards() {
    const demoTab = await openDemo();
    await demoTab.page.getByTestId('copilot-suggestion').filter({ hasText: 'Release v2 (three approvals)' }).click();
    await demoTab.page.getByRole('group', { name: '3 approvals wait for you' }).waitFor({ timeout: 30_000 });
    // The bar's name counts the approvals still waiting.
    const bar = demoTab.page.getByRole('group', { name: /approvals wait for you$/ });
    const card = (tool: string) => demoTab.page.getByTestId('approval-card').filter({ hasText: tool });
    return { demoTab, bar, tag: card('tag_release'), email: card('send_email'), branch: card('delete_branch') };
  }

  it('given the release pill, three cards offer only what each call allows, and Approve all runs the three tools in one resume', async () => {
    const { demoTab, bar, tag, email, branch } = await releaseCards();
    expect(await tag.getByTestId('approval-reject').count()).toBe(0);
    expect(await tag.getByTestId('approval-edit-open').count()).toBe(1);
    expect(await email.getByTestId('approval-reject').count()).toBe(1);
    expect(await branch.getByTestId('approval-edit-open').count()).toBe(0);
    await demoTab.screenshot('hitl-01-three-cards');

    await bar.getByRole('button', { name: 'Approve all (3)' }).click();
    await demoTab.waitForAnswer(
      /Done\. tag_release: Tagged v2\.0\.0\. \| send_email: Sent .* \| delete_branch: Deleted the branch release-candidate\./,
    );
    expect(demoTab.resumeRuns).toHaveLength(1);
    expect(demoTab.resumeRuns[0].resume?.map((entry) => entry.payload)).toEqual([
      { approved: true },
      { approved: true },
      { approved: true },
    ]);
    // The button that had focus went with the bar, and the bar with the set: focus lands on the
    // first card's answer, not on the page.
    const focused = () =>
      demoTab.page.evaluate(() => {
        const active = document.activeElement;
        if (!active || active === document.body) return 'the page';
        return active.matches('.cki-summary') ? 'a card summary' : active.outerHTML.slice(0, 80);
      });
    await expect.poll(focused).toBe('a card summary');
    await demoTab.screenshot('hitl-02-approved');
  });

  it('given the email rejected with a reason and the rest approved, no tool runs and the agent reads the reason', async () => {
    const { demoTab, bar, email } = await releaseCards();
    await email.getByLabel('Reason for rejecting (optional)').fill('Not before QA');
    await email.getByTestId('approval-reject').click();
    await bar.getByRole('button', { name: 'Approve all (2)' }).click();
    await demoTab.waitForAnswer(/Done\. send_email: Not before QA/);
    expect(demoTab.resumeRuns).toHaveLength(1);
  });
});

// The seams of shared threads, on the suite's one demo server: returning to a thread through the
// inbox, a message typed while a LangGraph card is open, a second device on the thread. No console
// filter: any console error or warning on a page, or an error in the server's log, fails the flow.
describe('shared threads, with a quiet console and server log', () => {
  const THREAD_KEY = 'copilotkit-interrupts-demo:thread';
  const contexts: BrowserContext[] = [];
  const pages: DemoPage[] = [];
  let logFrom = 0;
  // Devices are browser contexts: one browser of their own (the suite's is a single profile).
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromiumBrowser();
  });
  afterAll(() => browser?.close());

  /** A new device (its own browser context) on the demo's `query` page; `threadId` opens that thread. */
  async function device(query: string, threadId?: string): Promise<DemoPage> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    const key = query ? `${THREAD_KEY}:langgraph` : THREAD_KEY;
    if (threadId) await page.addInitScript(([k, id]) => window.sessionStorage.setItem(k, id), [key, threadId] as const);
    const opened = await DemoPage.attach(page, `${demo.url}/${query}`);
    pages.push(opened);
    return opened;
  }

  /** The interrupt cards in the transcript, in order: id and status. */
  const cardsOf = (tab: DemoPage) =>
    tab.transcript
      .locator('[data-interrupt-id]')
      .evaluateAll((nodes) => nodes.map((node) => [node.getAttribute('data-interrupt-id'), node.getAttribute('data-interrupt-status')]));

  beforeEach(() => {
    logFrom = demo.output().length;
  });

  afterEach(async () => {
    const noticed = pages.flatMap((each) => [...each.errors, ...each.warnings]);
    pages.splice(0);
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    expect(noticed).toEqual([]);
    const log = demo.output().slice(logFrom);
    expect(log.split('\n').filter((line) => /error|deprecated/i.test(line))).toEqual([]);
  });

  it('Mastra: returning to a thread through the inbox draws each card once, and so does a reload', async () => {
    const tab = await device('');
    const { page } = tab;
    const labels = toolSlotLabels();
    await tab.send('Book an intro call with the sales team to discuss pricing.');
    await tab.transcript.getByTestId('time-picker-slot').filter({ hasText: labels[0] }).click();
    await tab.waitForAnswer(new RegExp(`for ${labels[0]}`));
    await tab.send('Schedule a 1:1 with Alice next week to review Q2 goals.');
    await tab.transcript.getByTestId('time-picker-card').waitFor();
    const threadA = tab.runs[0].threadId!;
    const expected = await cardsOf(tab);
    expect(expected.map(([, status]) => status)).toEqual(['resolved', 'pending']);

    await page.getByRole('button', { name: 'New conversation' }).click();
    await expect.poll(() => cardsOf(tab)).toEqual([]);
    await tab.send('Hello');
    await tab.waitForAnswer(/demo agent/);

    const entryA = page
      .getByRole('region', { name: /Waiting for you/ })
      .locator(`[data-testid="pending-thread"][data-thread-id="${threadA}"]`);
    await entryA.waitFor({ timeout: 15_000 });
    await entryA.click();
    await tab.transcript.getByTestId('time-picker-card').waitFor({ timeout: 15_000 });
    await expect.poll(() => cardsOf(tab), { timeout: 15_000 }).toEqual(expected);
    await expect.poll(() => entryA.getAttribute('aria-current')).toBe('true');
    expect(await cardsOf(tab)).toEqual(expected);
    await tab.screenshot('12-inbox-return-each-card-once');

    await page.reload();
    await tab.transcript.getByTestId('time-picker-card').waitFor({ timeout: 15_000 });
    await expect.poll(() => cardsOf(tab), { timeout: 15_000 }).toEqual(expected);
    await tab.waitForAnswer(new RegExp(`for ${labels[0]}`));
    expect(await cardsOf(tab)).toEqual(expected);
  });

  it('LangGraph: a message typed while a card is open dismisses the card, stays, and gets its reply, also after a reload', async () => {
    const tab = await device('?agent=langgraph');
    await tab.send('Book an intro call with the sales team to discuss pricing.');
    await tab.transcript.getByTestId('time-picker-card').waitFor({ timeout: 30_000 });
    await tab.send('Hello?');
    await tab.transcript.getByTestId('time-picker-cancelled').filter({ hasText: 'Dismissed' }).waitFor({ timeout: 30_000 });
    await tab.waitForAnswer(/demo agent/);
    const userMessages = () => tab.page.getByTestId('copilot-user-message').allInnerTexts();
    expect((await userMessages()).map((text) => text.trim())).toEqual([
      'Book an intro call with the sales team to discuss pricing.',
      'Hello?',
    ]);
    expect(tab.resumeRuns.at(-1)?.resume).toEqual([{ interruptId: expect.any(String), status: 'cancelled' }]);
    const cards = await cardsOf(tab);
    expect(cards.map(([, status]) => status)).toEqual(['dismissed']);
    await tab.screenshot('langgraph-13-steer-away-keeps-the-message');

    await tab.page.reload();
    await tab.waitForAnswer(/demo agent/);
    await expect.poll(userMessages, { timeout: 15_000 }).toEqual(['Book an intro call with the sales team to discuss pricing.', 'Hello?']);
    await expect.poll(() => cardsOf(tab), { timeout: 15_000 }).toEqual(cards);
  });

  it('two devices on one thread: B answers, and A’s card turns read-only with B’s answer once A’s window has focus, with no click', async () => {
    const a = await device('');
    await a.send('Book an intro call with the sales team to discuss pricing.');
    await a.transcript.getByTestId('time-picker-card').waitFor();
    const threadId = await a.page.evaluate((key) => window.sessionStorage.getItem(key), THREAD_KEY);
    expect(threadId).toEqual(expect.any(String));

    const b = await device('', threadId!);
    const label = toolSlotLabels()[1];
    await b.transcript.getByTestId('time-picker-slot').filter({ hasText: label }).click();
    await b.waitForAnswer(new RegExp(`Scheduled ".+" for ${label}`));

    await a.page.bringToFront();
    const picked = a.transcript.getByTestId('time-picker-picked');
    await picked.waitFor({ timeout: 15_000 });
    expect(await picked.getByTestId('read-only-answer').textContent()).toBe(label);
    expect(await a.transcript.getByTestId('time-picker-slot').count()).toBe(0);
    expect(a.resumeRuns).toEqual([]);
    await a.screenshot('14-answered-on-another-device');
  });
});
