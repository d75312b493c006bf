/**
 * The Pix connector for a PSP's API Pix (Banco Central's standard, v2):
 * immediate charges (cob) under a txid derived from our transaction id,
 * received Pix read back from the PSP, devoluções. Capabilities: Pix charges,
 * refunds, notifications (with the PSP's webhook subscription), payments
 * listing, health check. The core writes the txid to provider_charges before
 * the PSP is called, so a retry after a crash sends the same txid and the PSP
 * answers the cob it has (a PUT of the same txid is safe: `resendable`).
 */
import { ConfigError, type BcbPixConfig } from '../../../config.js';
import type { ChargeCapability, Connector, ConnectorDeps, KeyedPayment, KnownCharge, NotificationCapability, PaymentsListing, PendingCall, RefundCapability } from '../capabilities.js';
import type { ChargeRecord, ChargeRequest, ReceivedPayment, RefundRecord, RefundRequest } from '../provider.js';
import { PixCredentialsRefused, PixHttpClient, PixTransportError, type PixHttpOptions } from './client.js';
import { centsToDecimal, decimalToCents } from '../../../lib/money.js';
import {
  claimedEndToEndIds,
  cut,
  devedorOf,
  devolucaoIdOf,
  E2EID_PATTERN,
  isRecord,
  parseCob,
  parsePix,
  rfc3339,
  txidOf,
  type Cob,
  type PixReceived,
} from './mapping.js';

const PROVIDER = 'bcb-api-pix';
/** A cob lives an hour when the request does not say. */
const DEFAULT_EXPIRY_SECONDS = 3600;
const REMOVED = ['REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP'];
/** Pages of GET /pix read at most per window: a bound, not an expected size. */
const MAX_PAGES = 1000;

/** The body of PUT /cob/{txid}. */
interface CobBody {
  calendario: { expiracao: number };
  devedor: ReturnType<typeof devedorOf>;
  valor: { original: string };
  chave: string;
  solicitacaoPagador?: string;
}

const DEVOLUCAO_STATUS: Record<string, RefundRecord['status']> = { EM_PROCESSAMENTO: 'PENDING', DEVOLVIDO: 'SUCCEEDED', NAO_REALIZADO: 'FAILED' };

export class BcbPixConnector implements Connector {
  readonly name = PROVIDER;
  readonly pix: ChargeCapability;
  readonly refunds: RefundCapability;
  readonly notifications: NotificationCapability;
  readonly payments: PaymentsListing;
  readonly health = { check: () => this.check() };
  private readonly http: PixHttpClient;

  /** `options.timeoutMs`: shorter timeouts for tests; production uses PIX_TIMEOUT_MS. */
  constructor(
    private readonly config: BcbPixConfig,
    private readonly deps: ConnectorDeps,
    options: PixHttpOptions = {},
  ) {
    this.http = new PixHttpClient(config, deps.clock, deps.extraCa, options);
    this.pix = {
      keyOf: (request) => txidOf(request.transactionId),
      registration: (txid, request) => this.registration(txid, request),
      resendable: true,
      find: (charge) => this.find(charge),
      cancel: (charge) => this.cancel(charge),
    };
    this.refunds = { refund: (request) => this.refund(request), findRefund: (request) => this.findRefund(request) };
    this.notifications = { claims: claimedEndToEndIds, verify: (paymentId) => this.verify(paymentId), subscribe: () => this.subscribe() };
    this.payments = { paymentsOf: (charge) => this.paymentsOf(charge), paymentsBetween: (from, to) => this.paymentsBetween(from, to) };
  }

  /** PUT /cob/{txid}, its body built now: a request that is not a Pix charge fails before anything is recorded. */
  private registration(txid: string, request: ChargeRequest): PendingCall {
    if (request.method !== 'PIX') throw new Error(`${PROVIDER} registers Pix charges only, not ${request.method}`);
    const body: CobBody = {
      calendario: { expiracao: request.expiresInSeconds ?? DEFAULT_EXPIRY_SECONDS },
      devedor: devedorOf(request.buyer.document, request.buyer.name),
      valor: { original: centsToDecimal(request.amountCents) },
      chave: this.config.pixKey,
      ...(request.description ? { solicitacaoPagador: cut(request.description, 140) } : {}),
    };
    // The provider's id is the txid, our key: nothing more to keep after the call.
    return async () => {
      const record = await this.putCob(request.reference, txid, body);
      return { record: () => record };
    };
  }

  /** PUT /cob/{txid}; a PSP refusing a repeated PUT (a retry after a crash) holds our cob when the amount matches. */
  private async putCob(reference: string, txid: string, body: CobBody): Promise<ChargeRecord> {
    const path = `/cob/${txid}`;
    const res = await this.http.call('PUT', path, body);
    if (res.status === 200 || res.status === 201) return this.recordOf(reference, this.cobOf(res.body, path));
    if (res.status === 400 || res.status === 409) {
      const existing = await this.getCob(txid);
      if (existing && existing.original === body.valor.original) return this.recordOf(reference, existing);
    }
    throw this.http.refusal('PUT', path, res);
  }

  private async find(charge: KnownCharge): Promise<ChargeRecord | undefined> {
    const cob = await this.getCob(charge.key);
    return cob ? this.recordOf(charge.reference, cob) : undefined;
  }

  /** Withdraws the cob (REMOVIDA_PELO_USUARIO_RECEBEDOR); already removed or unknown is done; a paid one throws. */
  private async cancel(charge: KnownCharge): Promise<void> {
    const path = `/cob/${charge.key}`;
    const res = await this.http.call('PATCH', path, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' });
    if (res.status === 200 || res.status === 404) return;
    const cob = await this.getCob(charge.key);
    if (cob && REMOVED.includes(cob.status)) return;
    if (cob?.status === 'CONCLUIDA') throw new Error(`${PROVIDER}: cob ${charge.key} is CONCLUIDA (paid) and cannot be withdrawn`);
    throw this.http.refusal('PATCH', path, res);
  }

  private async paymentsOf(charge: KnownCharge): Promise<ReceivedPayment[]> {
    const cob = await this.getCob(charge.key);
    return (cob?.pix ?? []).map((pix) => ({ paymentId: pix.endToEndId, reference: charge.reference, amountCents: pix.amountCents, paidAt: pix.paidAt }));
  }

  /** Every Pix received in the window that names a txid; the core keeps those of our charges. */
  private async paymentsBetween(from: Date, to: Date): Promise<KeyedPayment[]> {
    const payments: KeyedPayment[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const query = new URLSearchParams({ inicio: rfc3339(from), fim: rfc3339(to), 'paginacao.paginaAtual': String(page) });
      const path = `/pix?${query.toString()}`;
      const res = await this.http.call('GET', path);
      if (res.status !== 200 || !isRecord(res.body)) throw this.http.refusal('GET', '/pix', res);
      const items = Array.isArray(res.body.pix) ? res.body.pix : [];
      for (const item of items) {
        const pix = parsePix(item);
        if (pix?.txid) payments.push(this.paymentOf(pix, pix.txid));
      }
      const parametros = isRecord(res.body.parametros) ? res.body.parametros : {};
      const paginacao = isRecord(parametros.paginacao) ? parametros.paginacao : {};
      const pages = typeof paginacao.quantidadeDePaginas === 'number' ? paginacao.quantidadeDePaginas : 1;
      if (page + 1 >= pages) break;
    }
    return payments;
  }

  /** The Pix as the PSP records it, when it names a cob; the amount is the PSP's. */
  private async verify(paymentId: string): Promise<KeyedPayment | undefined> {
    if (!E2EID_PATTERN.test(paymentId)) return undefined;
    const path = `/pix/${paymentId}`;
    const res = await this.http.call('GET', path);
    if (res.status === 404) return undefined;
    if (res.status !== 200) throw this.http.refusal('GET', path, res);
    const pix = parsePix(res.body);
    if (!pix?.txid || pix.endToEndId !== paymentId) return undefined;
    return this.paymentOf(pix, pix.txid);
  }

  private async refund(request: RefundRequest): Promise<RefundRecord> {
    const path = this.devolucaoPath(request);
    const res = await this.http.call('PUT', path, { valor: centsToDecimal(request.amountCents) });
    if (res.status === 200 || res.status === 201) return this.refundOf(request.refundId, res.body, path);
    // The id already used (a retry): the devolução asked earlier.
    if (res.status === 400 || res.status === 409) {
      const existing = await this.findRefund(request);
      if (existing) return existing;
    }
    throw this.http.refusal('PUT', path, res);
  }

  private async findRefund(request: RefundRequest): Promise<RefundRecord | undefined> {
    const path = this.devolucaoPath(request);
    const res = await this.http.call('GET', path);
    if (res.status === 404) return undefined;
    if (res.status !== 200) throw this.http.refusal('GET', path, res);
    return this.refundOf(request.refundId, res.body, path);
  }

  /** A token (credentials and mTLS accepted), then a query answered; else an Error naming the variable to fix. */
  private async check(): Promise<string> {
    try {
      await this.http.accessToken(true);
      const now = this.deps.clock.now();
      const query = new URLSearchParams({ inicio: rfc3339(new Date(now.getTime() - 3_600_000)), fim: rfc3339(now) });
      const res = await this.http.call('GET', `/cob?${query.toString()}`);
      if (res.status === 401 || res.status === 403) throw new Error(`${PROVIDER}: the API refused the token (${res.status}): check the scopes granted to PIX_CLIENT_ID`);
      if (res.status === 404) throw new Error(`${PROVIDER}: no API Pix at PIX_API_URL (${this.config.apiUrl}: 404)`);
      if (res.status !== 200) throw this.http.refusal('GET', '/cob', res);
      return `${PROVIDER}: token accepted, API answered (${this.config.apiUrl})`;
    } catch (error) {
      throw this.explain(error);
    }
  }

  /** Tells the PSP where to post notifications (PUT /webhook/{chave}). */
  async registerWebhook(): Promise<void> {
    if (!this.config.webhookUrl) throw new ConfigError('PIX_WEBHOOK_URL', 'is not set: the PSP needs the https URL of our POST …/pix route');
    const path = `/webhook/${encodeURIComponent(this.config.pixKey)}`;
    const res = await this.http.call('PUT', path, { webhookUrl: this.config.webhookUrl });
    if (res.status !== 200 && res.status !== 201 && res.status !== 204) throw this.http.refusal('PUT', '/webhook', res);
  }

  /** The notifications capability's subscription: registerWebhook (`svc pix register-webhook`, and the API at start). */
  private async subscribe(): Promise<string> {
    await this.registerWebhook();
    return `${PROVIDER}: PSP notifications go to ${this.config.webhookUrl}/pix`;
  }

  /** Releases the connections (tests, shutdown). */
  async close(): Promise<void> {
    await this.http.close();
  }

  private async getCob(txid: string): Promise<Cob | undefined> {
    const path = `/cob/${txid}`;
    const res = await this.http.call('GET', path);
    if (res.status === 404) return undefined;
    if (res.status !== 200) throw this.http.refusal('GET', path, res);
    return this.cobOf(res.body, path);
  }

  private cobOf(body: unknown, path: string): Cob {
    const cob = parseCob(body);
    if (!cob) throw new Error(`${PROVIDER}: the PSP's answer to ${path} is not a cob`);
    return cob;
  }

  private recordOf(reference: string, cob: Cob): ChargeRecord {
    return { reference, providerId: cob.txid, approved: true, ...(cob.pixCopiaECola ? { pix: { qrCode: cob.pixCopiaECola } } : {}) };
  }

  private paymentOf(pix: PixReceived, txid: string): KeyedPayment {
    return { paymentId: pix.endToEndId, key: txid, amountCents: pix.amountCents, paidAt: pix.paidAt };
  }

  private devolucaoPath(request: RefundRequest): string {
    if (!request.paymentId || !E2EID_PATTERN.test(request.paymentId)) throw new Error(`${PROVIDER}: a devolução needs the endToEndId of the Pix refunded`);
    return `/pix/${request.paymentId}/devolucao/${devolucaoIdOf(request.refundId)}`;
  }

  private refundOf(refundId: string, body: unknown, path: string): RefundRecord {
    if (!isRecord(body) || typeof body.status !== 'string' || !(body.status in DEVOLUCAO_STATUS)) throw new Error(`${PROVIDER}: the PSP's answer to ${path} is not a devolução`);
    const status = DEVOLUCAO_STATUS[body.status]!;
    const record: RefundRecord = { refundId, status, providerId: typeof body.rtrId === 'string' ? body.rtrId : undefined };
    if (status === 'FAILED') record.failureReason = typeof body.motivo === 'string' ? body.motivo : 'NAO_REALIZADO';
    if (typeof body.valor === 'string' && decimalToCents(body.valor) === undefined) throw new Error(`${PROVIDER}: the PSP's devolução has no valid valor`);
    return record;
  }

  /** check()'s failure, naming the variable most likely wrong. */
  private explain(error: unknown): Error {
    if (error instanceof PixCredentialsRefused) return new Error(`${PROVIDER}: ${error.message}`);
    if (error instanceof PixTransportError) {
      const code = error.code;
      const url = error.stage === 'token' ? 'PIX_OAUTH_URL' : 'PIX_API_URL';
      if (/CERT|SSL|TLS|EPROTO|ECONNRESET|UND_ERR_SOCKET|UNABLE|SELF_SIGNED|HANDSHAKE/i.test(code)) {
        if (/SELF_SIGNED|UNABLE_TO_VERIFY|CERT_UNTRUSTED|ERR_TLS_CERT_ALTNAME|CERT_HAS_EXPIRED/.test(code)) {
          return new Error(`${PROVIDER}: the PSP's server certificate is not trusted (${code}): check ${url} and PIX_CA_FILE`);
        }
        return new Error(`${PROVIDER}: the TLS connection failed (${code}): check the client certificate in PIX_CERT_FILE and PIX_KEY_FILE (the one the PSP issued)`);
      }
      return new Error(`${PROVIDER}: the PSP is unreachable (${code}): check ${url}`);
    }
    if (error instanceof Error) return new Error(this.http.scrub(error.message.startsWith(PROVIDER) ? error.message : `${PROVIDER}: ${error.message}`));
    return new Error(`${PROVIDER}: check failed`);
  }
}
