/**
 * What the dashboard's pages show beyond one module's view: the home page's
 * sums, a sale with everything around it, the CSV exports, and the webhook
 * moves that start from a delivery or a registration. Every change goes
 * through the owning module's service (the seller's API's rules); this file
 * composes reads and finds what those services take.
 */
import type { Readable } from 'node:stream';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { isDomainError, notFound, type Outcome } from '../../lib/domain-error.js';
import { isId } from '../../lib/ids.js';
import { addDays, saoPauloDate, startOfSaoPauloDay } from '../../lib/sao-paulo-date.js';
import type { Services } from '../../services.js';
import { daysBetween, nextToReceive, receivableTotals, type DaySums } from '../daily-totals/index.js';
import type { ResendResult } from '../events/service.js';
import type { ReceivableListQuery } from '../receivables/index.js';
import { shownWebhookUrl } from '../webhooks/index.js';
import type { SearchQuery } from '../transactions/index.js';
import { csvStream } from './csv.js';
import * as repo from './repo.js';
import { receivablesLayout, transactionsLayout, type CsvFormat, type ReceivableFilter } from './rules.js';
import type { Language } from '../../lib/i18n/language.js';

/** Days the home page's chart and its "last 30 days" cover (today included). */
const HOME_DAYS = 30;
/** The expected dates A receber lists (the earliest with something to receive). */
const NEXT_DATES = 5;
/** A sale's page shows at most this many of its events (a sale has a handful: created, paid, refunds). */
const TIMELINE_EVENTS = 50;

export interface DashboardServiceDeps {
  db: Db;
  clock: Clock;
  services: Services;
}

export class DashboardService {
  constructor(private readonly deps: DashboardServiceDeps) {}

  /**
   * The home page (docs/dashboard.md): São Paulo days, every one of the last
   * HOME_DAYS present. Read from the daily totals (modules/daily-totals), a
   * few rows per day whatever the number of sales, and the open PENDING sales.
   */
  async home(companyId: string) {
    const { db, clock } = this.deps;
    const now = clock.now();
    const today = saoPauloDate(now);
    const first = addDays(today, -(HOME_DAYS - 1));
    const monthStart = `${today.slice(0, 8)}01`;
    const dates = Array.from({ length: HOME_DAYS }, (_, i) => addDays(first, i));
    const [days, pending, receivables, next] = await Promise.all([
      daysBetween(db, companyId, monthStart < first ? monthStart : first, today),
      repo.pendingSince(db, companyId, startOfSaoPauloDay(first)),
      receivableTotals(db, companyId),
      nextToReceive(db, companyId, NEXT_DATES),
    ]);
    const byDay = new Map(days.map((d) => [d.day, d]));
    const window = days.filter((d) => d.day >= first);
    const month = days.filter((d) => d.day >= monthStart);
    const tally = (list: DaySums[], count: (d: DaySums) => number, amount: (d: DaySums) => number) => ({
      count: list.reduce((s, d) => s + count(d), 0),
      amount: list.reduce((s, d) => s + amount(d), 0),
    });
    return {
      today: tally(window.filter((d) => d.day === today), (d) => d.paidCount, (d) => d.paidCents),
      last30Days: tally(window, (d) => d.paidCount, (d) => d.paidCents),
      pending,
      refunded: tally(window, (d) => d.refundedCount, (d) => d.refundedCents),
      chargedBack: tally(window, (d) => d.chargedBackCount, (d) => d.chargedBackCents),
      receivables: {
        toReceive: receivables.toReceive,
        paid: receivables.received,
        receivedThisMonth: month.reduce((s, d) => s + d.receivedCents, 0),
        next,
      },
      fees: { thisMonth: month.reduce((s, d) => s + d.feeCents, 0) },
      daily: dates.map((date) => ({ date, amount: byDay.get(date)?.paidCents ?? 0 })),
    };
  }

  /**
   * Recebíveis: by expected date, earliest first, each line with its sale's
   * number of installments (`installmentCount`), so the page writes "1/3".
   */
  async receivables(companyId: string, q: Omit<ReceivableListQuery, 'order'>) {
    const page = await this.deps.services.receivables.listForCompany(companyId, { ...q, order: 'expected' });
    const counts = await repo.installmentsOf(this.deps.db, companyId, [...new Set(page.data.map((r) => r.transactionId))]);
    return { ...page, data: page.data.map((r) => ({ ...r, installmentCount: counts.get(r.transactionId) ?? 1 })) };
  }

  /**
   * A sale: the transaction, its split receivables, its refunds, and its
   * events each with every webhook attempt. A registration's URL may carry a
   * secret in its query: `webhookPaths` (developers.read) shows it without
   * the query, anyone else its origin only (webhooks/view.ts).
   */
  async transaction(companyId: string, id: string, webhookPaths = false) {
    const { db, services } = this.deps;
    const transaction = await services.transactions.get(companyId, id);
    if (isDomainError(transaction)) return transaction;
    const [refunds, events] = await Promise.all([
      services.refunds.listOfTransaction(companyId, id, { limit: 100 }),
      repo.eventsOfTransaction(db, companyId, id, TIMELINE_EVENTS),
    ]);
    const deliveries = await repo.deliveriesOfEvents(db, companyId, events.map((e) => e.id));
    const timeline = events.map((e) => ({
      event: { id: e.id, type: e.type, createdAt: e.created_at.toISOString() },
      deliveries: deliveries
        .filter((d) => d.eventId === e.id)
        .map((d) =>
          d.attempt === null
            ? { webhookId: d.webhookId, url: shownWebhookUrl(d.url, webhookPaths), attempt: 0, status: d.state, httpStatus: null, at: d.nextAttemptAt.toISOString() }
            : { webhookId: d.webhookId, url: shownWebhookUrl(d.url, webhookPaths), attempt: d.attempt, status: d.succeeded ? 'SUCCEEDED' : 'FAILED', httpStatus: d.httpStatus, at: d.attemptedAt!.toISOString() },
        ),
    }));
    return { transaction, receivables: transaction.split.receivables, refunds: isDomainError(refunds) ? [] : refunds.data, timeline };
  }

  /** Every transaction the filters and the search select, as a CSV stream in `format` (read in keyset batches as it is sent). */
  transactionsCsv(companyId: string, q: Omit<SearchQuery, 'limit' | 'startingAfter'>, format: CsvFormat, language: Language): Readable {
    const { header, line, dialect } = transactionsLayout(format, language);
    return csvStream(header, this.deps.services.transactions.exportRows(companyId, q), line, dialect);
  }

  /** Every receivable line the filters select, as a CSV stream in `format`. */
  receivablesCsv(companyId: string, q: ReceivableFilter, format: CsvFormat, language: Language): Readable {
    const { header, line, dialect } = receivablesLayout(format, language);
    return csvStream(header, this.deps.services.receivables.exportLines(companyId, q), line, dialect);
  }

  /** Sends a delivery's event to its registration again (a new delivery, as POST /v2/events/{id}/resend does). */
  async resendDelivery(companyId: string, deliveryId: string): Promise<Outcome<ResendResult>> {
    const delivery = isId('dlv', deliveryId) ? await repo.findDelivery(this.deps.db, companyId, deliveryId) : undefined;
    if (!delivery) return notFound('delivery');
    return this.deps.services.events.resend(companyId, delivery.eventId, delivery.webhookId);
  }

  /**
   * A test of a registration: the company's latest event of a type it
   * receives, sent to it alone, signed with its secret like any delivery.
   * The event catalogue has no test type (a receiver acts on every type it
   * knows), so a company with no such event yet gets 404 with what to do.
   */
  async testWebhook(companyId: string, webhookId: string): Promise<Outcome<ResendResult>> {
    const webhook = await this.deps.services.webhooks.get(companyId, webhookId);
    if (isDomainError(webhook)) return webhook;
    const eventId = await repo.latestEventOf(this.deps.db, companyId, webhook.events);
    if (!eventId) return notFound('eventToTest');
    return this.deps.services.events.resend(companyId, eventId, webhook.id);
  }
}
