/**
 * The Cielo E-commerce API 3.0 connector: credit cards (authorized and
 * captured in one sale) and boletos (registered by the bank configured in
 * CIELO_BOLETO_PROVIDER).
 *
 * Cielo knows each sale by our MerchantOrderId (derived from the reference)
 * and by its own PaymentId. The provider_charges row is written before the
 * sale is sent, so a retry of the same reference (the row exists) first asks
 * Cielo for the sale and only sends a new one when Cielo has none: never a
 * second authorization or a second boleto.
 */
import type { CieloConfig } from '../../../config.js';
import type { Clock } from '../../../lib/clock.js';
import type { Db } from '../../../db/database.js';
import {
  ProviderUnavailable,
  type CardAuthorization,
  type ChargeRecord,
  type ChargeRequest,
  type PaymentProvider,
  type PreparedCharge,
  type ReceivedPayment,
  type RefundRecord,
  type RefundRequest,
} from '../provider.js';
import { findChargeByProviderKey, findChargeRow, rememberCharge, rememberChargeFragment, setProviderId, type NewProviderCharge } from '../repo.js';
import type { ConnectorDeps } from '../router.js';
import { AUTHORIZE_TIMEOUT_MS, CieloClient, CieloError } from './client.js';
import {
  boletoSaleBody,
  cardSaleBody,
  chargeRecordOf,
  CieloStatus,
  isDecided,
  isPaymentId,
  merchantOrderIdOf,
  receivedPaymentOf,
  stands,
  type CieloSale,
} from './mapping.js';

/** What Cielo's void answers (PUT /1/sales/{PaymentId}/void). */
interface VoidAnswer {
  Status?: number;
  ReasonCode?: number;
  ReasonMessage?: string;
}

const PROVIDER = 'cielo';

export class CieloProvider implements PaymentProvider {
  readonly name = PROVIDER;
  private readonly client: CieloClient;
  private readonly db: Db;
  private readonly clock: Clock;

  constructor(
    private readonly config: CieloConfig,
    deps: ConnectorDeps,
  ) {
    this.client = new CieloClient(config, deps.extraCa);
    this.db = deps.db;
    this.clock = deps.clock;
  }

  async authorizeCard(req: CardAuthorization): Promise<ChargeRecord> {
    const merchantOrderId = merchantOrderIdOf(req.reference);
    const card = { brand: req.card.brand, last4: req.card.last4 };
    const body = cardSaleBody(merchantOrderId, req); // a brand Cielo does not take fails before anything is recorded
    if (await findChargeRow(this.db, req.reference)) {
      // A retry: the first call may have reached Cielo without its answer reaching us.
      const earlier = await this.findSale(req.reference);
      if (earlier) return this.decided(req.reference, earlier, card);
    } else {
      await rememberCharge(this.db, { reference: req.reference, provider: PROVIDER, method: 'CREDIT_CARD', providerKey: merchantOrderId, amountCents: req.amountCents, at: this.clock.now() });
    }
    let answer;
    try {
      answer = await this.client.call({ base: 'api', method: 'POST', path: '/1/sales/', body, timeoutMs: AUTHORIZE_TIMEOUT_MS });
    } catch (err) {
      // Cielo refused the request itself (a card field it does not accept): no sale was made, the buyer sees a refusal.
      // Refused credentials (401, 403) are the operator's to fix: a plain error, loud in the logs.
      if (err instanceof CieloError && err.statusCode !== 401 && err.statusCode !== 403) {
        return { reference: req.reference, providerId: merchantOrderId, approved: false, refusalCode: 'request_refused', refusalMessage: 'The card acquirer refused the payment request.', card };
      }
      throw err;
    }
    return this.answered(req.reference, answer.body as CieloSale, card);
  }

  async register(req: ChargeRequest): Promise<ChargeRecord> {
    const { charge, send } = this.boletoSale(req);
    if (await findChargeRow(this.db, req.reference)) {
      const earlier = await this.findSale(req.reference);
      if (earlier) return this.decided(req.reference, earlier);
    } else {
      await rememberCharge(this.db, charge);
    }
    return send();
  }

  /** register for a new reference: its row is written by the caller's statement, then the sale is sent. */
  prepare(req: ChargeRequest): PreparedCharge {
    const { charge, send } = this.boletoSale(req);
    return { insert: rememberChargeFragment(charge), send };
  }

  /** The provider_charges row of a boleto, and the sale that registers it (its PaymentId kept: one more write). */
  private boletoSale(req: ChargeRequest): { charge: NewProviderCharge; send: () => Promise<ChargeRecord> } {
    if (req.method !== 'BOLETO') throw new Error(`Cielo registers boletos, not ${req.method}`);
    if (!req.dueDate) throw new Error('a boleto needs a due date');
    const merchantOrderId = merchantOrderIdOf(req.reference);
    const charge: NewProviderCharge = {
      reference: req.reference,
      provider: PROVIDER,
      method: 'BOLETO',
      providerKey: merchantOrderId,
      transactionId: req.transactionId,
      amountCents: req.amountCents,
      at: this.clock.now(),
    };
    const body = boletoSaleBody(merchantOrderId, req, this.config.boletoProvider);
    const send = async () => this.answered(req.reference, (await this.client.call({ base: 'api', method: 'POST', path: '/1/sales/', body })).body as CieloSale);
    return { charge, send };
  }

  /** A sale Cielo just created: its PaymentId is kept, then it becomes a record (or an unknown outcome). */
  private async answered(reference: string, sale: CieloSale | undefined, card?: { brand: string; last4: string }): Promise<ChargeRecord> {
    const paymentId = sale?.Payment?.PaymentId;
    if (!sale || !paymentId) throw new ProviderUnavailable('Cielo answered a sale without its PaymentId');
    await setProviderId(this.db, reference, paymentId);
    return this.decided(reference, sale, card);
  }

  /** NotFinished, Scheduled and the like are no outcome yet: the caller resolves them later with findCharge. */
  private decided(reference: string, sale: CieloSale, card?: { brand: string; last4: string }): ChargeRecord {
    if (!isDecided(sale)) throw new ProviderUnavailable(`Cielo has not decided the sale yet (status ${sale.Payment?.Status ?? 'absent'})`);
    return chargeRecordOf(reference, sale, this.clock.now(), card);
  }

  async findCharge(reference: string): Promise<ChargeRecord | undefined> {
    const sale = await this.findSale(reference);
    return sale ? this.decided(reference, sale) : undefined;
  }

  /**
   * Cielo's sale for a reference: by the PaymentId we kept, else by the
   * MerchantOrderId (the first call's answer may have been lost). Of several
   * sales under one MerchantOrderId, one that stands wins.
   */
  private async findSale(reference: string): Promise<CieloSale | undefined> {
    const row = await findChargeRow(this.db, reference);
    if (row?.provider_id && isPaymentId(row.provider_id)) {
      const sale = await this.saleById(row.provider_id);
      if (sale) return sale;
    }
    const merchantOrderId = row?.provider_key ?? merchantOrderIdOf(reference);
    const answer = await this.client.call({ base: 'query', method: 'GET', path: `/1/sales?merchantOrderId=${encodeURIComponent(merchantOrderId)}`, accept: [404] });
    if (answer.statusCode === 404) return undefined;
    const ids = ((answer.body as { Payments?: Array<{ PaymentId?: unknown }> } | undefined)?.Payments ?? []).map((p) => p.PaymentId).filter(isPaymentId);
    const sales: CieloSale[] = [];
    for (const id of ids) {
      const sale = await this.saleById(id);
      if (sale) sales.push(sale);
    }
    return sales.find(stands) ?? sales.find(isDecided) ?? sales[0];
  }

  private async saleById(paymentId: string): Promise<CieloSale | undefined> {
    const answer = await this.client.call({ base: 'query', method: 'GET', path: `/1/sales/${encodeURIComponent(paymentId)}`, accept: [404] });
    return answer.statusCode === 404 ? undefined : (answer.body as CieloSale | undefined);
  }

  /** Voids the whole sale when it stands; a refused or already reversed sale is answered as it is. */
  async reverse(reference: string): Promise<ChargeRecord | undefined> {
    const sale = await this.findSale(reference);
    if (!sale) return undefined;
    if (!stands(sale)) return this.decided(reference, sale);
    const voided = await this.void(sale);
    if (voided.Status !== CieloStatus.Voided && voided.Status !== CieloStatus.Refunded) {
      throw new Error(`Cielo did not void the sale of ${reference}: ${voided.ReasonMessage ?? `status ${voided.Status ?? 'absent'}`}`);
    }
    const now = this.clock.now();
    const record = chargeRecordOf(reference, { ...sale, Payment: { ...sale.Payment, Status: voided.Status } }, now);
    record.reversedAt ??= now.toISOString();
    return record;
  }

  /** Without an amount Cielo voids all that is left of the sale (after any partial refund). */
  private async void(sale: CieloSale, amountCents?: number): Promise<VoidAnswer> {
    const id = encodeURIComponent(sale.Payment?.PaymentId ?? '');
    const query = amountCents === undefined ? '' : `?amount=${amountCents}`;
    const answer = await this.client.call({ base: 'api', method: 'PUT', path: `/1/sales/${id}/void${query}` });
    return (answer.body ?? {}) as VoidAnswer;
  }

  /**
   * Cielo cannot withdraw a registered boleto through the API for most
   * banks: an unpaid one simply expires at its due date. A card sale has
   * nothing to withdraw (it is decided at once). So: nothing to do.
   */
  async cancel(): Promise<void> {}

  async paymentsOf(reference: string): Promise<ReceivedPayment[]> {
    const sale = await this.findSale(reference);
    const paid = sale && sale.Payment?.Type === 'Boleto' ? receivedPaymentOf(reference, sale, this.clock.now()) : undefined;
    return paid ? [paid] : [];
  }

  /** Cielo has no query of payments by date. */
  async paymentsBetween(): Promise<ReceivedPayment[]> {
    return [];
  }

  /** Cielo posts `{ PaymentId, ChangeType }` (1: the status changed); only the PaymentId is taken, and verified. */
  notificationClaims(body: unknown): string[] | undefined {
    if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
    const { PaymentId, ChangeType } = body as Record<string, unknown>;
    if (!isPaymentId(PaymentId) || typeof ChangeType !== 'number') return undefined;
    return [PaymentId];
  }

  /** A boleto of ours that Cielo shows paid; card sales are decided when authorized, never by notification. */
  async verifyPayment(paymentId: string): Promise<ReceivedPayment | undefined> {
    if (!isPaymentId(paymentId)) return undefined;
    const sale = await this.saleById(paymentId);
    if (!sale?.MerchantOrderId || sale.Payment?.PaymentId?.toLowerCase() !== paymentId.toLowerCase()) return undefined;
    const row = await findChargeByProviderKey(this.db, PROVIDER, sale.MerchantOrderId);
    if (!row || row.method !== 'BOLETO') return undefined;
    return receivedPaymentOf(row.reference, sale, this.clock.now());
  }

  /**
   * A card refund is a void of an amount. Cielo keeps no refund key, so the
   * sale is read first: when its VoidedAmount already covers this refund on
   * top of the earlier ones (a retry of a void whose answer was lost), the
   * refund is done and nothing is voided again.
   */
  async refund(req: RefundRequest): Promise<RefundRecord> {
    const row = await findChargeRow(this.db, req.reference);
    if (row?.method === 'BOLETO') throw new Error('a boleto cannot be refunded through Cielo');
    const sale = await this.findSale(req.reference);
    if (!sale?.Payment?.PaymentId) throw new Error(`Cielo has no sale for ${req.reference}`);
    const earlier = this.refundOnSale(req, sale);
    if (earlier) return earlier;
    const voided = await this.void(sale, req.amountCents);
    const done = voided.Status === CieloStatus.Voided || voided.Status === CieloStatus.Refunded || voided.Status === CieloStatus.PaymentConfirmed;
    if (done && (voided.ReasonCode ?? 0) === 0) return { refundId: req.refundId, status: 'SUCCEEDED', providerId: sale.Payment.PaymentId };
    return { refundId: req.refundId, status: 'FAILED', providerId: sale.Payment.PaymentId, failureReason: voided.ReasonMessage ?? `status ${voided.Status ?? 'absent'}` };
  }

  /** Cielo reports only the total voided on a sale: a refund is done when that total covers it on top of the earlier refunds. */
  async findRefund(req: RefundRequest): Promise<RefundRecord | undefined> {
    const sale = await this.findSale(req.reference);
    return sale ? this.refundOnSale(req, sale) : undefined;
  }

  private refundOnSale(req: RefundRequest, sale: CieloSale): RefundRecord | undefined {
    const voidedAmount = sale.Payment?.VoidedAmount ?? 0;
    if (!sale.Payment?.PaymentId || voidedAmount < (req.refundedBeforeCents ?? 0) + req.amountCents) return undefined;
    return { refundId: req.refundId, status: 'SUCCEEDED', providerId: sale.Payment.PaymentId };
  }

  async check(): Promise<string> {
    let found: number;
    try {
      const answer = await this.client.call({ base: 'query', method: 'GET', path: '/1/sales?merchantOrderId=svccheck', accept: [404] });
      found = ((answer.body as { Payments?: unknown[] } | undefined)?.Payments ?? []).length;
    } catch (err) {
      if (err instanceof CieloError && (err.statusCode === 401 || err.statusCode === 403)) {
        throw new Error(`cielo: the credentials were refused (${err.statusCode}): check CIELO_MERCHANT_ID and CIELO_MERCHANT_KEY`, { cause: err });
      }
      if (err instanceof ProviderUnavailable) throw new Error(`cielo: the query base did not answer, check CIELO_QUERY_URL (${err.message})`, { cause: err });
      throw new Error(`cielo: the query base refused the check, check CIELO_QUERY_URL: ${(err as Error).message}`, { cause: err });
    }
    try {
      // Any HTTP answer proves the transactional base is reachable; nothing is created.
      await this.client.call({ base: 'api', method: 'GET', path: '/1/sales/', accept: 'any' });
    } catch (err) {
      throw new Error(`cielo: the transactional base did not answer, check CIELO_API_URL (${(err as Error).message})`, { cause: err });
    }
    return `cielo: credentials accepted, query answered (${found} sale(s) for the check order)`;
  }

  /** Releases the connections (tests; the service keeps one connector for its life). */
  async close(): Promise<void> {
    await this.client.close();
  }
}
