import type { InterruptHistory } from '../src/history';
import type { InterruptLocale } from '../src/i18n/locale';
import type { RendererMap } from '../src/registry';
import type { AnyInterruptRenderer } from './renderer-props';
import type { AnyInterruptResume, OnInterruptResume } from '../src/protocol/types';
import type { WaitingNoticeOptions } from './use-waiting-notice';

/** Options of `useInterruptRenderers` / `<InterruptRenderers>`. */
export interface InterruptRenderersConfig {
  /** The agent whose interrupts to render; CopilotKit's default agent when omitted. */
  agentId?: string;
  /** Renderers keyed by reason, `tool:<toolName>` or `<namespace>:*`, merged over the built-in cards. */
  renderers?: RendererMap<AnyInterruptRenderer>;
  /** The card for interrupts no renderer claims, malformed ones, and renderers that threw. */
  fallback?: AnyInterruptRenderer;
  /** Extra wait after the read-only card is painted, before the agent resumes. Default 500 ms. */
  resolveDelayMs?: number;
  /** Called with the protocol's resume record for every answer, and by cards for their operations. */
  onInterruptResume?: OnInterruptResume<AnyInterruptResume, unknown>;
  /**
   * Draw cards inside `<CopilotChat>` (default). With `false` the hook returns the element for
   * you to place, and there is no transcript echo.
   */
  renderInChat?: boolean;
  /** The cards' language (`lang`, fallback slot wording). Default `'en'`; zh-CN texts come with `{ ...zhCN }`. */
  locale?: InterruptLocale;
  /** Label overrides passed to every card, or a whole table such as `zhCN.labels` from `copilotkit-interrupts/locales/zh-CN`. */
  labels?: Readonly<Record<string, string>>;
  /**
   * What a chat message does while an interrupt is open. `'dismiss'` (default): the open cards
   * turn read-only "Dismissed" (status `dismissed`), the agent gets `cancelled` for them with that message, and the
   * message gets its reply. `'block'`: the first open card asks to be answered first.
   */
  onChatWhileOpen?: 'dismiss' | 'block';
  /**
   * Where answered interrupts are kept for the transcript echo. Give one created with
   * `createInterruptHistory({ persistence: 'localStorage' })` to keep echoes across reloads;
   * by default each hook keeps its own in memory.
   */
  history?: InterruptHistory;
  /**
   * Offer "Always allow <tool> in this conversation" on direct-mode approval cards: `true` for
   * every tool, or the tool names that may be always allowed. Later approvals of an allowed tool
   * in the same thread are answered `{approved: true, autoApproved: true}` without asking and show
   * read-only "Auto-approved" with a Revoke button. Kept in `history` with the thread. Off by default.
   */
  allowAlways?: boolean | readonly string[];
  /**
   * Cards that open while the tab is hidden: by default the tab's title reads "(1) Waiting for
   * you · <title>" until they are answered; `{ notification: true }` also shows one browser
   * notification (permission asked at the user's first click or key press). `false` turns both off.
   */
  waitingNotice?: WaitingNoticeOptions | false;
}

/** The built-in cards the component layer passes in. */
export interface InterruptRendererDefaults {
  renderers: RendererMap<AnyInterruptRenderer>;
  fallback?: AnyInterruptRenderer;
}

export const DEFAULT_RESOLVE_DELAY_MS = 500;
