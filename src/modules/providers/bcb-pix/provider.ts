/**
 * The Pix connector for a PSP's API Pix (Banco Central's standard, v2):
 * immediate charges (cob) under a txid derived from our transaction id,
 * received Pix read back from the PSP, devoluções. The txid is written to
 * provider_charges before the PSP is called (persist, call), so a retry after
 * a crash sends the same txid and finds the cob instead of creating another;
 * `prepare` hands that write to the caller's statement.
 */
import { ConfigError, type BcbPixConfig } from '../../../config.js';
import type {
  CardAuthorization,
  ChargeRecord,
  ChargeRequest,
  PaymentProvider,
  PreparedCharge,
  ReceivedPayment,
  RefundRecord,
  RefundRequest,
} from '../provider.js';
import { findChargeByProviderKey, findChargeRow, rememberCharge, rememberChargeFragment, type NewProviderCharge } from '../repo.js';
import type { ConnectorDeps } from '../router.js';
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

export class BcbPixProvider implements PaymentProvider {
  readonly name = PROVIDER;
  private readonly http: PixHttpClient;

  /** `options.timeoutMs`: shorter timeouts for tests; production uses PIX_TIMEOUT_MS. */
  constructor(
    private readonly config: BcbPixConfig,
    private readonly deps: ConnectorDeps,
    options: PixHttpOptions = {},
  ) {
    this.http = new PixHttpClient(config, deps.clock, deps.extraCa, options);
  }

  async register(request: ChargeRequest): Promise<ChargeRecord> {
    const { charge, body } = this.cobRequest(request);
    // Persist first: the first row's txid is the one every retry sends.
    const row = await rememberCharge(this.deps.db, charge);
    if (row.provider !== PROVIDER) throw new Error(`${PROVIDER}: reference ${request.reference} is already registered with ${row.provider}`);
    return this.putCob(request.reference, row.provider_key, body);
  }

  /** register for a new reference: the txid is the one the row written by the caller's statement holds. */
  prepare(request: ChargeRequest): PreparedCharge {
    const { charge, body } = this.cobRequest(request);
    return { insert: rememberChargeFragment(charge), send: () => this.putCob(request.reference, charge.providerKey, body) };
  }

  /** The provider_charges row and the cob body of a Pix charge. */
  private cobRequest(request: ChargeRequest): { charge: NewProviderCharge; body: CobBody } {
    if (request.method !== 'PIX') throw new Error(`${PROVIDER} registers Pix charges only, not ${request.method}`);
    const body: CobBody = {
      calendario: { expiracao: request.expiresInSeconds ?? DEFAULT_EXPIRY_SECONDS },
      devedor: devedorOf(request.buyer.document, request.buyer.name),
      valor: { original: centsToDecimal(request.amountCents) },
      chave: this.config.pixKey,
      ...(request.description ? { solicitacaoPagador: cut(request.description, 140) } : {}),
    };
    const charge: NewProviderCharge = {
      reference: request.reference,
      provider: PROVIDER,
      method: 'PIX',
      providerKey: txidOf(request.transactionId),
      transactionId: request.transactionId,
      amountCents: request.amountCents,
      at: this.deps.clock.now(),
    };
    return { charge, body };
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

  async authorizeCard(_request: CardAuthorization): Promise<ChargeRecord> {
    throw new Error(`${PROVIDER} does not authorize cards`);
  }

  async findCharge(reference: string): Promise<ChargeRecord | undefined> {
    const row = await findChargeRow(this.deps.db, reference);
    if (!row || row.provider !== PROVIDER) return undefined;
    const cob = await this.getCob(row.provider_key);
    return cob ? this.recordOf(reference, cob) : undefined;
  }

  /** A Pix charge is never approved and then reversed: the record as it is. */
  async reverse(reference: string): Promise<ChargeRecord | undefined> {
    return this.findCharge(reference);
  }

  /** Withdraws the cob (REMOVIDA_PELO_USUARIO_RECEBEDOR); already removed or unknown is done; a paid one throws. */
  async cancel(reference: string): Promise<void> {
    const row = await findChargeRow(this.deps.db, reference);
    if (!row || row.provider !== PROVIDER) return;
    const path = `/cob/${row.provider_key}`;
    const res = await this.http.call('PATCH', path, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' });
    if (res.status === 200 || res.status === 404) return;
    const cob = await this.getCob(row.provider_key);
    if (cob && REMOVED.includes(cob.status)) return;
    if (cob?.status === 'CONCLUIDA') throw new Error(`${PROVIDER}: cob ${row.provider_key} is CONCLUIDA (paid) and cannot be withdrawn`);
    throw this.http.refusal('PATCH', path, res);
  }

  async paymentsOf(reference: string): Promise<ReceivedPayment[]> {
    const row = await findChargeRow(this.deps.db, reference);
    if (!row || row.provider !== PROVIDER) return [];
    const cob = await this.getCob(row.provider_key);
    return (cob?.pix ?? []).map((pix) => this.paymentOf(reference, pix));
  }

  async paymentsBetween(from: Date, to: Date): Promise<ReceivedPayment[]> {
    const payments: ReceivedPayment[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const query = new URLSearchParams({ inicio: rfc3339(from), fim: rfc3339(to), 'paginacao.paginaAtual': String(page) });
      const path = `/pix?${query.toString()}`;
      const res = await this.http.call('GET', path);
      if (res.status !== 200 || !isRecord(res.body)) throw this.http.refusal('GET', '/pix', res);
      const items = Array.isArray(res.body.pix) ? res.body.pix : [];
      for (const item of items) {
        const pix = parsePix(item);
        if (!pix?.txid) continue;
        const row = await findChargeByProviderKey(this.deps.db, PROVIDER, pix.txid);
        if (row) payments.push(this.paymentOf(row.reference, pix));
      }
      const parametros = isRecord(res.body.parametros) ? res.body.parametros : {};
      const paginacao = isRecord(parametros.paginacao) ? parametros.paginacao : {};
      const pages = typeof paginacao.quantidadeDePaginas === 'number' ? paginacao.quantidadeDePaginas : 1;
      if (page + 1 >= pages) break;
    }
    return payments;
  }

  notificationClaims(body: unknown): string[] | undefined {
    return claimedEndToEndIds(body);
  }

  /** The Pix as the PSP records it, when it is for one of our cobs; the amount is the PSP's. */
  async verifyPayment(paymentId: string): Promise<ReceivedPayment | undefined> {
    if (!E2EID_PATTERN.test(paymentId)) return undefined;
    const path = `/pix/${paymentId}`;
    const res = await this.http.call('GET', path);
    if (res.status === 404) return undefined;
    if (res.status !== 200) throw this.http.refusal('GET', path, res);
    const pix = parsePix(res.body);
    if (!pix?.txid || pix.endToEndId !== paymentId) return undefined;
    const row = await findChargeByProviderKey(this.deps.db, PROVIDER, pix.txid);
    return row ? this.paymentOf(row.reference, pix) : undefined;
  }

  async refund(request: RefundRequest): Promise<RefundRecord> {
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

  async findRefund(request: RefundRequest): Promise<RefundRecord | undefined> {
    const path = this.devolucaoPath(request);
    const res = await this.http.call('GET', path);
    if (res.status === 404) return undefined;
    if (res.status !== 200) throw this.http.refusal('GET', path, res);
    return this.refundOf(request.refundId, res.body, path);
  }

  /** A token (credentials and mTLS accepted), then a query answered; else an Error naming the variable to fix. */
  async check(): Promise<string> {
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

  /** The interface's name for registerWebhook (`svc pix register-webhook`, and the API at start). */
  async registerNotifications(): Promise<string> {
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

  private paymentOf(reference: string, pix: PixReceived): ReceivedPayment {
    return { paymentId: pix.endToEndId, reference, amountCents: pix.amountCents, paidAt: pix.paidAt };
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
