import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { APPROVAL_STATUS, isTerminalApprovalStatus } from '../../src/protocol/constants';
import type { ApprovalTicket } from '../../src/mastra/schemas';

export interface ApprovalStoreOptions {
  /** How many refreshes a pending ticket takes to be approved. Default 2. */
  refreshesToApprove?: number;
  /** The approvers every ticket lists. */
  approvers?: string[];
  /** The clock for `submit_time`. */
  now?: () => Date;
  /**
   * A JSON file the tickets are kept in (read at start, written on every change), so an approval
   * card left open across a restart can still be refreshed. Default: memory only.
   */
  file?: string;
}

interface SavedTickets {
  next: number;
  tickets: [string, { ticket: ApprovalTicket; refreshes: number }][];
  /** `open(title, key)`: the ticket each key opened. */
  keys?: [string, string][];
}

function formatTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * The demo's stand-in for a third-party approval system, in process: `open()` files a pending
 * ticket; every `refresh()` is one look at it, and after a few looks it is approved; `cancel()`
 * withdraws it. The page reaches it through `POST /api/approvals/:sn/refresh|cancel`.
 */
export class ApprovalStore {
  private readonly tickets = new Map<string, { ticket: ApprovalTicket; refreshes: number }>();
  private readonly keys = new Map<string, string>();
  private next = 1;
  /** Where ticket links point (the server sets it once it listens). */
  baseUrl = 'http://127.0.0.1';

  constructor(private readonly options: ApprovalStoreOptions = {}) {
    if (options.file && existsSync(options.file)) this.load(options.file);
  }

  private load(file: string) {
    try {
      const saved = JSON.parse(readFileSync(file, 'utf8')) as SavedTickets;
      if (!Number.isInteger(saved.next) || !Array.isArray(saved.tickets)) throw new Error('not a ticket file');
      for (const [sn, entry] of saved.tickets) this.tickets.set(sn, entry);
      for (const [key, sn] of saved.keys ?? []) this.keys.set(key, sn);
      this.next = saved.next;
    } catch (error) {
      throw new Error(
        `The demo's approval tickets in ${file} cannot be read (${(error as Error).message}). Move the file away to start with no tickets.`,
      );
    }
  }

  /** Writes the tickets whole to a temporary file and renames it over the old one: never half-written. */
  private save() {
    const { file } = this.options;
    if (!file) return;
    const saved: SavedTickets = { next: this.next, tickets: [...this.tickets], keys: [...this.keys] };
    writeFileSync(`${file}.tmp`, JSON.stringify(saved));
    renameSync(`${file}.tmp`, file);
  }

  /**
   * Files a pending ticket. With a `key`, a second `open` with the same key returns the ticket the
   * first one filed (a LangGraph node runs again from the top when resumed, after a restart too).
   */
  open(title: string, key?: string): ApprovalTicket {
    const existing = key === undefined ? undefined : this.keys.get(key);
    if (existing !== undefined && this.tickets.has(existing)) return this.get(existing)!;
    const sn = `APR-${String(this.next++).padStart(4, '0')}`;
    const ticket: ApprovalTicket = {
      approvers: this.options.approvers ?? ['Dana Whitfield (Platform lead)', 'Sam Okafor (Security)'],
      sn,
      status: APPROVAL_STATUS.PENDING,
      submit_time: formatTime(this.options.now ? this.options.now() : new Date()),
      title,
      url: `${this.baseUrl}/api/approvals/${sn}`,
    };
    this.tickets.set(sn, { ticket, refreshes: 0 });
    if (key !== undefined) this.keys.set(key, sn);
    this.save();
    return { ...ticket };
  }

  get(sn: string): ApprovalTicket | undefined {
    const entry = this.tickets.get(sn);
    return entry ? { ...entry.ticket } : undefined;
  }

  /** One look at the ticket: a pending ticket is approved after `refreshesToApprove` looks. */
  refresh(sn: string): ApprovalTicket | undefined {
    const entry = this.tickets.get(sn);
    if (!entry) return undefined;
    if (!isTerminalApprovalStatus(entry.ticket.status)) {
      entry.refreshes += 1;
      if (entry.refreshes >= (this.options.refreshesToApprove ?? 2)) {
        entry.ticket = { ...entry.ticket, status: APPROVAL_STATUS.APPROVED };
      }
      this.save();
    }
    return { ...entry.ticket };
  }

  /** Withdraws a ticket that is still open. */
  cancel(sn: string): ApprovalTicket | undefined {
    const entry = this.tickets.get(sn);
    if (!entry) return undefined;
    if (!isTerminalApprovalStatus(entry.ticket.status)) {
      entry.ticket = { ...entry.ticket, status: APPROVAL_STATUS.CANCELLED };
      this.save();
    }
    return { ...entry.ticket };
  }
}
