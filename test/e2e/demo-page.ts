import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Locator, Page, Request } from 'playwright-core';

export const SCREENSHOT_DIR = join(new URL('../..', import.meta.url).pathname, 'test-results', 'e2e');

export interface RunInput {
  runId?: string;
  threadId?: string;
  resume?: { interruptId: string; status: string; payload?: unknown }[];
}

/**
 * One browser tab on the demo, recording what a person would notice going wrong (console
 * errors, page errors) and every agent run the page sends.
 */
export class DemoPage {
  readonly errors: string[] = [];
  /** Console warnings, apart from `errors`: a flow that checks for a quiet console checks both. */
  readonly warnings: string[] = [];
  readonly runs: RunInput[] = [];

  private constructor(readonly page: Page) {
    page.on('console', (message) => {
      if (message.type() === 'error') this.errors.push(`console: ${message.text()}`);
      if (message.type() === 'warning') this.warnings.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => this.errors.push(`page: ${error.message}`));
    page.on('request', (request) => this.recordRun(request));
  }

  static async open(context: BrowserContext, url: string): Promise<DemoPage> {
    return DemoPage.attach(await context.newPage(), url);
  }

  /** Records on a page the caller prepared (init scripts, say), then opens `url` in it. */
  static async attach(page: Page, url: string): Promise<DemoPage> {
    const demo = new DemoPage(page);
    await page.goto(url);
    return demo;
  }

  private recordRun(request: Request) {
    if (request.method() !== 'POST' || !/\/api\/copilotkit\/agent\/[^/]+\/run$/.test(request.url())) return;
    try {
      const body = JSON.parse(request.postData() ?? '{}');
      this.runs.push(body.body ?? body);
    } catch {
      this.runs.push({});
    }
  }

  get resumeRuns(): RunInput[] {
    return this.runs.filter((run) => Array.isArray(run.resume) && run.resume.length > 0);
  }

  get transcript(): Locator {
    return this.page.getByTestId('copilot-message-list');
  }

  get input(): Locator {
    return this.page.getByTestId('copilot-chat-textarea');
  }

  assistantMessages(): Locator {
    return this.page.getByTestId('copilot-assistant-message');
  }

  /**
   * Types `text` and sends it with Enter, as a person does: once the send button is enabled.
   * Until the chat has reached its runtime, CopilotKit keeps the text in the box and Enter does
   * nothing (on a slow start a message sent at once would never leave).
   */
  async send(text: string) {
    await this.input.fill(text);
    await this.page.locator('[data-testid="copilot-send-button"]:enabled').waitFor();
    await this.input.press('Enter');
  }

  /** Waits until the agent has answered with text matching `pattern`. */
  async waitForAnswer(pattern: RegExp, timeout = 30_000) {
    await this.assistantMessages().filter({ hasText: pattern }).last().waitFor({ timeout });
  }

  async screenshot(name: string): Promise<string> {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const path = join(SCREENSHOT_DIR, `${name}.png`);
    await this.page.screenshot({ path, fullPage: true });
    console.log(`screenshot: ${path}`);
    return path;
  }
}
