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
import type { ResendResult } from '../events/service.js';
import type { SearchQuery } from '../transactions/index.js';
import { csvStream } from './csv.js';
import * as repo from './repo.js';
import { RECEIVABLE_COLUMNS, receivableCells, TRANSACTION_COLUMNS, transactionCells, type ReceivableFilter } from './rules.js';

/** Days the home page's chart and its "last 30 days" cover (today included). */
const HOME_DAYS = 30;
/** A sale's page shows at most this many of its events (a sale has a handful: created, paid, refunds). */
const TIMELINE_EVENTS = 50;

export interface DashboardServiceDeps {
  db: Db;
  clock: Clock;
  services: Services;
}

export class DashboardService {
  constructor(private readonly deps: DashboardServiceDeps) {}

  /** The home page (docs/dashboard.md): São Paulo days, every one of the last HOME_DAYS present. */
  async home(companyId: string) {
    const { db, clock, services } = this.deps;
    const now = clock.now();
    const today = saoPauloDate(now);
    const first = addDays(today, -(HOME_DAYS - 1));
    const dates = Array.from({ length: HOME_DAYS }, (_, i) => addDays(first, i));
    const starts = [...dates, addDays(today, 1)].map(startOfSaoPauloDay);
    const [todayPaid, lastDays, outcomes, daily, receivables] = await Promise.all([
      repo.paidBetween(db, companyId, startOfSaoPauloDay(today), starts[HOME_DAYS]!),
      repo.paidBetween(db, companyId, starts[0]!, starts[HOME_DAYS]!),
      repo.recentOutcomes(db, companyId, starts[0]!),
      repo.paidByDay(db, companyId, starts),
      services.receivables.totalsForCompany(companyId, {}),
    ]);
    return {
      today: todayPaid,
      last30Days: lastDays,
      ...outcomes,
      receivables: { toReceive: receivables.byStatus.PENDING, paid: receivables.byStatus.PAID },
      daily: dates.map((date, i) => ({ date, amount: daily[i]! })),
    };
  }

  /** A sale: the transaction, its split receivables, its refunds, and its events each with every webhook attempt. */
  async transaction(companyId: string, id: string) {
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
            ? { webhookId: d.webhookId, url: d.url, attempt: 0, status: d.state, httpStatus: null, at: d.nextAttemptAt.toISOString() }
            : { webhookId: d.webhookId, url: d.url, attempt: d.attempt, status: d.succeeded ? 'SUCCEEDED' : 'FAILED', httpStatus: d.httpStatus, at: d.attemptedAt!.toISOString() },
        ),
    }));
    return { transaction, receivables: transaction.split.receivables, refunds: isDomainError(refunds) ? [] : refunds.data, timeline };
  }

  /** Every transaction the filters and the search select, as a CSV stream (read in keyset batches as it is sent). */
  transactionsCsv(companyId: string, q: Omit<SearchQuery, 'limit' | 'startingAfter'>): Readable {
    return csvStream(TRANSACTION_COLUMNS, this.deps.services.transactions.exportRows(companyId, q), transactionCells);
  }

  /** Every receivable line the filters select, as a CSV stream. */
  receivablesCsv(companyId: string, q: ReceivableFilter): Readable {
    return csvStream(RECEIVABLE_COLUMNS, this.deps.services.receivables.exportLines(companyId, q), receivableCells);
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
