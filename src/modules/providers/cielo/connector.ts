/**
 * The Cielo E-commerce API 3.0 connector: credit cards (authorized and
 * captured in one sale) and boletos (registered by the bank configured in
 * CIELO_BOLETO_PROVIDER). Capabilities: card authorization, boletos,
 * refunds (voids of an amount), notifications, payments listing (a charge's
 * payments; Cielo has no query by date), health check.
 *
 * Cielo knows each sale by our MerchantOrderId (derived from the reference,
 * within the boleto bank's length) and by its own PaymentId, which the core
 * keeps after the call. Sending a sale again is not safe (Cielo would make a
 * second one), so a retry of a recorded reference asks Cielo for the sale
 * first (`resendable: false`): never a second authorization or boleto.
 */
import type { CieloConfig } from '../../../config.js';
import type { Clock } from '../../../lib/clock.js';
import type {
  CardCapability,
  ChargeCapability,
  ChargeLookup,
  Connector,
  ConnectorDeps,
  KeyedPayment,
  KnownCharge,
  NotificationCapability,
  PaymentsListing,
  PendingCall,
  ProviderAnswer,
  RefundCapability,
} from '../capabilities.js';
import { ProviderUnavailable, type CardAuthorization, type ChargeRecord, type ChargeRequest, type ReceivedPayment, type RefundRecord, type RefundRequest } from '../provider.js';
import { AUTHORIZE_TIMEOUT_MS, CieloClient, CieloError } from './client.js';
import {
  boletoMerchantOrderIdOf,
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

export class CieloConnector implements Connector {
  readonly name = PROVIDER;
  readonly card: CardCapability;
  readonly boleto: ChargeCapability;
  readonly refunds: RefundCapability;
  readonly notifications: NotificationCapability;
  readonly payments: PaymentsListing;
  readonly health = { check: () => this.check() };
  private readonly client: CieloClient;
  private readonly clock: Clock;

  constructor(
    private readonly config: CieloConfig,
    deps: ConnectorDeps,
  ) {
    this.client = new CieloClient(config, deps.extraCa);
    this.clock = deps.clock;
    const find = (charge: KnownCharge) => this.find(charge);
    this.card = { keyOf: merchantOrderIdOf, authorization: (key, req) => this.authorization(key, req), find, reverse: (charge) => this.reverse(charge) };
    this.boleto = {
      keyOf: (req) => boletoMerchantOrderIdOf(req.reference, this.config.boletoProvider),
      registration: (key, req) => this.boletoSale(key, req),
      resendable: false,
      find,
      // Cielo cannot withdraw a registered boleto through the API for most banks: an unpaid one simply expires at its due date.
      cancel: async () => {},
    };
    this.refunds = { refund: (req, charge) => this.refund(req, charge), findRefund: (req, charge) => this.findRefund(req, charge) };
    this.notifications = { claims: (body) => this.claims(body), verify: (paymentId) => this.verify(paymentId) };
    this.payments = { paymentsOf: (charge) => this.paymentsOf(charge), paymentsBetween: async () => [] };
  }

  /** The card sale, built now: a brand Cielo does not take fails before anything is recorded. */
  private authorization(merchantOrderId: string, req: CardAuthorization): PendingCall {
    const card = { brand: req.card.brand, last4: req.card.last4 };
    const body = cardSaleBody(merchantOrderId, req);
    return async () => {
      let answer;
      try {
        answer = await this.client.call({ base: 'api', method: 'POST', path: '/1/sales/', body, timeoutMs: AUTHORIZE_TIMEOUT_MS });
      } catch (err) {
        // Cielo refused the request itself (a card field it does not accept): no sale was made, the buyer sees a refusal.
        // Refused credentials (401, 403) are the operator's to fix: a plain error, loud in the logs.
        if (err instanceof CieloError && err.statusCode !== 401 && err.statusCode !== 403) {
          const refused: ChargeRecord = { reference: req.reference, providerId: merchantOrderId, approved: false, refusalCode: 'request_refused', refusalMessage: 'The card acquirer refused the payment request.', card };
          return { record: () => refused };
        }
        throw err;
      }
      return this.answered(req.reference, answer.body as CieloSale, card);
    };
  }

  /** The boleto sale, built now (a request without a due date fails before anything is recorded). */
  private boletoSale(merchantOrderId: string, req: ChargeRequest): PendingCall {
    if (req.method !== 'BOLETO') throw new Error(`Cielo registers boletos, not ${req.method}`);
    if (!req.dueDate) throw new Error('a boleto needs a due date');
    const body = boletoSaleBody(merchantOrderId, req, this.config.boletoProvider);
    return async () => this.answered(req.reference, (await this.client.call({ base: 'api', method: 'POST', path: '/1/sales/', body })).body as CieloSale);
  }

  /** A sale Cielo just created: its PaymentId for the core to keep, then a record (or an unknown outcome). */
  private answered(reference: string, sale: CieloSale | undefined, card?: { brand: string; last4: string }): ProviderAnswer {
    const paymentId = sale?.Payment?.PaymentId;
    if (!sale || !paymentId) throw new ProviderUnavailable('Cielo answered a sale without its PaymentId');
    return { providerId: paymentId, record: () => this.decided(reference, sale, card) };
  }

  /** NotFinished, Scheduled and the like are no outcome yet: the caller resolves them later with findCharge. */
  private decided(reference: string, sale: CieloSale, card?: { brand: string; last4: string }): ChargeRecord {
    if (!isDecided(sale)) throw new ProviderUnavailable(`Cielo has not decided the sale yet (status ${sale.Payment?.Status ?? 'absent'})`);
    return chargeRecordOf(reference, sale, this.clock.now(), card);
  }

  private async find(charge: KnownCharge): Promise<ChargeRecord | undefined> {
    const sale = await this.findSale(charge);
    return sale ? this.decided(charge.reference, sale) : undefined;
  }

  /**
   * Cielo's sale for a reference: by the PaymentId we kept, else by the
   * MerchantOrderId (the first call's answer may have been lost). Of several
   * sales under one MerchantOrderId, one that stands wins.
   */
  private async findSale(charge: KnownCharge): Promise<CieloSale | undefined> {
    if (charge.providerId && isPaymentId(charge.providerId)) {
      const sale = await this.saleById(charge.providerId);
      if (sale) return sale;
    }
    const merchantOrderId = charge.key;
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
  private async reverse(charge: KnownCharge): Promise<ChargeRecord | undefined> {
    const reference = charge.reference;
    const sale = await this.findSale(charge);
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

  private async paymentsOf(charge: KnownCharge): Promise<ReceivedPayment[]> {
    const sale = await this.findSale(charge);
    const paid = sale && sale.Payment?.Type === 'Boleto' ? receivedPaymentOf(charge.reference, sale, this.clock.now()) : undefined;
    return paid ? [paid] : [];
  }

  /** Cielo posts `{ PaymentId, ChangeType }` (1: the status changed); only the PaymentId is taken, and verified. */
  private claims(body: unknown): string[] | undefined {
    if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
    const { PaymentId, ChangeType } = body as Record<string, unknown>;
    if (!isPaymentId(PaymentId) || typeof ChangeType !== 'number') return undefined;
    return [PaymentId];
  }

  /** A boleto sale Cielo shows paid, by its MerchantOrderId; the core keeps it when that is one of our boletos (a card is decided when authorized). */
  private async verify(paymentId: string): Promise<KeyedPayment | undefined> {
    if (!isPaymentId(paymentId)) return undefined;
    const sale = await this.saleById(paymentId);
    if (!sale?.MerchantOrderId || sale.Payment?.PaymentId?.toLowerCase() !== paymentId.toLowerCase() || sale.Payment.Type !== 'Boleto') return undefined;
    const paid = receivedPaymentOf(sale.MerchantOrderId, sale, this.clock.now());
    return paid && { paymentId: paid.paymentId, key: sale.MerchantOrderId, amountCents: paid.amountCents, paidAt: paid.paidAt };
  }

  /**
   * A card refund is a void of an amount. Cielo keeps no refund key, so the
   * sale is read first: when its VoidedAmount already covers this refund on
   * top of the earlier ones (a retry of a void whose answer was lost), the
   * refund is done and nothing is voided again.
   */
  private async refund(req: RefundRequest, lookup: ChargeLookup): Promise<RefundRecord> {
    const charge = await lookup();
    if (charge?.method === 'BOLETO') throw new Error('a boleto cannot be refunded through Cielo');
    const sale = charge && (await this.findSale(charge));
    if (!sale?.Payment?.PaymentId) throw new Error(`Cielo has no sale for ${req.reference}`);
    const earlier = this.refundOnSale(req, sale);
    if (earlier) return earlier;
    const voided = await this.void(sale, req.amountCents);
    const done = voided.Status === CieloStatus.Voided || voided.Status === CieloStatus.Refunded || voided.Status === CieloStatus.PaymentConfirmed;
    if (done && (voided.ReasonCode ?? 0) === 0) return { refundId: req.refundId, status: 'SUCCEEDED', providerId: sale.Payment.PaymentId };
    return { refundId: req.refundId, status: 'FAILED', providerId: sale.Payment.PaymentId, failureReason: voided.ReasonMessage ?? `status ${voided.Status ?? 'absent'}` };
  }

  /** Cielo reports only the total voided on a sale: a refund is done when that total covers it on top of the earlier refunds. */
  private async findRefund(req: RefundRequest, lookup: ChargeLookup): Promise<RefundRecord | undefined> {
    const charge = await lookup();
    const sale = charge && (await this.findSale(charge));
    return sale ? this.refundOnSale(req, sale) : undefined;
  }

  private refundOnSale(req: RefundRequest, sale: CieloSale): RefundRecord | undefined {
    const voidedAmount = sale.Payment?.VoidedAmount ?? 0;
    if (!sale.Payment?.PaymentId || voidedAmount < (req.refundedBeforeCents ?? 0) + req.amountCents) return undefined;
    return { refundId: req.refundId, status: 'SUCCEEDED', providerId: sale.Payment.PaymentId };
  }

  private async check(): Promise<string> {
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
