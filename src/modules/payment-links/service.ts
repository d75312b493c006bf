/**
 * Payment links, the seller's side: create, read, list, cancel.
 *
 * Invariants: a link's fields never change after creation except
 * `canceled_at`, set once under the row's lock; its status is derived at
 * every read from the clock and its PAID sales (rules.ts), so a link is
 * EXPIRED from the instant `expires_at` passes without any sweeper. The
 * buyer's side is page-service.ts; the slot reservation is slots.ts.
 */
import type { Db } from '../../db/database.js';
import type { NewPaymentLink } from '../../db/types.js';
import { transact } from '../../db/transact.js';
import type { Clock } from '../../lib/clock.js';
import { isDomainError, notFound, validationFailure, type Outcome } from '../../lib/domain-error.js';
import { isId, type IdGenerator } from '../../lib/ids.js';
import { DEFAULT_PAGE_SIZE, toPage } from '../../lib/paging.js';
import type { ResponseRecorder } from '../idempotency/index.js';
import type { SplitRulesCheck } from '../payment-intents/index.js';
import { countPaidByLink } from '../transactions/index.js';
import * as repo from './repo.js';
import { validateLink } from './rules.js';
import type { CreateLinkInput, LinkView } from './schemas.js';
import { paidCountOf } from './slots.js';
import { linkView } from './view.js';

export interface LinkDeps {
  db: Db;
  clock: Clock;
  newId: IdGenerator;
  checkSplitRules: SplitRulesCheck;
  /** The API's public URL (PUBLIC_API_URL): a link's `url` is this + /pay/{id}. */
  publicApiUrl: string;
}

export const linkNotFound = () => notFound('paymentLink');

export class PaymentLinkService {
  constructor(private readonly deps: LinkDeps) {}

  async create(companyId: string, input: CreateLinkInput, recorder?: ResponseRecorder): Promise<Outcome<LinkView>> {
    const { db, clock, newId } = this.deps;
    const now = clock.now();
    const problems = validateLink(input, now);
    if (problems.length > 0) return validationFailure(problems);
    const split = await this.deps.checkSplitRules(companyId, input);
    if (isDomainError(split)) return split;
    const values: NewPaymentLink = {
      id: newId('plink'),
      company_id: companyId,
      amount_cents: input.amountCents,
      description: input.description,
      payment_methods: JSON.stringify(input.paymentMethods),
      max_installments: input.maxInstallments ?? 1,
      split_rules: input.splitRules ? JSON.stringify(input.splitRules) : null,
      expires_at: input.expiresAt ? new Date(input.expiresAt) : null,
      max_payments: input.maxPayments ?? null,
      metadata: input.metadata ? JSON.stringify(input.metadata) : null,
      reference_id: input.referenceId ?? null,
      canceled_at: null,
      created_at: now,
      updated_at: now,
    };
    return transact(db, async (trx) => {
      const view = linkView(await repo.insertLink(trx, values), 0, now, this.deps.publicApiUrl);
      await recorder?.save(trx, view);
      return view;
    });
  }

  async get(companyId: string, id: string): Promise<Outcome<LinkView>> {
    const row = isId('plink', id) ? await repo.findLink(this.deps.db, companyId, id) : undefined;
    if (!row) return linkNotFound();
    return linkView(row, await paidCountOf(this.deps.db, row), this.deps.clock.now(), this.deps.publicApiUrl);
  }

  async list(companyId: string, q: { limit?: number; startingAfter?: string }): Promise<{ data: LinkView[]; hasMore: boolean }> {
    const limit = q.limit ?? DEFAULT_PAGE_SIZE;
    const page = toPage(await repo.listLinks(this.deps.db, companyId, limit, q.startingAfter), limit);
    const paid = await countPaidByLink(this.deps.db, companyId, page.data.map((r) => r.id));
    const now = this.deps.clock.now();
    return { data: page.data.map((row) => linkView(row, paid.get(row.id) ?? 0, now, this.deps.publicApiUrl)), hasMore: page.hasMore };
  }

  /**
   * Stops the link taking payments (its page says so). Canceling a canceled
   * link answers it unchanged. Charges already issued (a Pix QR code, a
   * boleto) stay payable until their own window closes: the buyer holds them.
   */
  async cancel(companyId: string, id: string, recorder?: ResponseRecorder): Promise<Outcome<LinkView>> {
    if (!isId('plink', id)) return linkNotFound();
    const now = this.deps.clock.now();
    return transact(this.deps.db, async (trx) => {
      const row = await repo.findLink(trx, companyId, id, true);
      if (!row) return linkNotFound();
      const canceled = row.canceled_at ? row : await repo.cancelLink(trx, row.id, now);
      const view = linkView(canceled, await paidCountOf(trx, canceled), now, this.deps.publicApiUrl);
      await recorder?.save(trx, view);
      return view;
    });
  }
}
