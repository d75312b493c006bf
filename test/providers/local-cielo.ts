/**
 * A local stand-in for Cielo's E-commerce API 3.0, for tests: a real HTTPS
 * server (the test CA's server certificate) on 127.0.0.1 serving the
 * transactional base under /api and the query base under /query, with its
 * sales in memory, answering as Cielo's manual describes.
 *
 * Cards: approved and captured (Status 2) unless the number ends in 0002
 * (Denied, 51) or 0069 (Denied, 57). A number ending in 0119 is the silent
 * case: the sale is recorded as approved, but the connection is dropped
 * before any answer, which is how a lost answer looks to the connector.
 * Voids (refunds) apply an amount to the sale's VoidedAmount; `dropNextVoidAnswer`
 * makes the next one apply and then drop the connection, a void whose answer was lost.
 * Boletos: registered (Status 1) with a valid FEBRABAN barcode; `payBoleto`
 * pays one and, like Cielo's notification URL setting, posts
 * `{ PaymentId, ChangeType: 1 }` to `notifyTo`.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { buildBoleto, sandboxFreeField } from '../../src/modules/boleto/febraban.js';
import type { TestCa } from '../helpers/test-ca.js';

type Json = Record<string, any>;

export interface LocalCieloSale {
  MerchantOrderId: string;
  Customer: Json;
  Payment: Json;
}

export interface LocalCieloOptions {
  ca: TestCa;
  merchantId: string;
  merchantKey: string;
  /** Where paid boletos are notified (Cielo's "URL de notificação"). */
  notifyTo?: string;
  /** How long the silent case holds the connection before dropping it. */
  silentDropMs?: number;
}

export interface LocalCielo {
  apiUrl: string;
  queryUrl: string;
  /** Every sale, in creation order. */
  readonly sales: LocalCieloSale[];
  sale(paymentId: string): LocalCieloSale | undefined;
  salesCount(merchantOrderId: string): number;
  /** Headers of every request received (never bodies), for header checks. */
  readonly requests: Array<{ method: string; url: string; headers: Json }>;
  /** Pays a boleto (Status 2) and notifies unless `notify: false`; resolves to the notification's HTTP status, if sent. */
  payBoleto(paymentId: string, opts?: { notify?: boolean; notifyTo?: string; amountCents?: number }): Promise<number | undefined>;
  /** Posts any body to the notification URL (a forged notification). */
  postNotification(body: unknown, notifyTo?: string): Promise<number>;
  /** While on, every API answer is 503. */
  failing(on: boolean): void;
  /** The next void is applied, then the connection is dropped before any answer (a timeout after the fact). */
  dropNextVoidAnswer(): void;
  close(): Promise<void>;
}

const BANK_CODES: Record<string, string> = { Bradesco2: '237', BancoDoBrasil2: '001', ItauShopline: '341', Santander2: '033', Caixa2: '104' };

/** Cielo writes dates in São Paulo time without an offset: "2026-11-21 09:00:00". */
function cieloDate(at = new Date()): string {
  return new Date(at.getTime() - 3 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
}

const errors = (...list: Array<[number, string]>): Json[] => list.map(([Code, Message]) => ({ Code, Message }));

function send(res: ServerResponse, status: number, body?: unknown): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export async function startLocalCielo(opts: LocalCieloOptions): Promise<LocalCielo> {
  const sales: LocalCieloSale[] = [];
  const byId = new Map<string, LocalCieloSale>();
  const requests: LocalCielo['requests'] = [];
  let failing = false;
  let dropVoidAnswer = false;
  let boletoNumber = 0;
  let port = 0;
  const agent = new Agent({ connect: { ca: opts.ca.ca } });

  const createCard = (body: Json, res: ServerResponse): boolean => {
    const p = body.Payment as Json;
    const card = (p.CreditCard ?? {}) as Json;
    const number = String(card.CardNumber ?? '');
    if (!/^\d{12,19}$/.test(number)) {
      send(res, 400, errors([126, 'Credit Card Number is invalid']));
      return false;
    }
    if (!/^(0[1-9]|1[0-2])\/\d{4}$/.test(String(card.ExpirationDate ?? ''))) {
      send(res, 400, errors([126, 'Credit Card Expiration Date is invalid']));
      return false;
    }
    if (!Number.isInteger(p.Amount) || p.Amount <= 0) {
      send(res, 400, errors([114, 'Amount is invalid']));
      return false;
    }
    const outcome = number.endsWith('0002')
      ? { Status: 3, ReturnCode: '51', ReturnMessage: 'Not Sufficient Funds' }
      : number.endsWith('0069')
        ? { Status: 3, ReturnCode: '57', ReturnMessage: 'Card Expired' }
        : { Status: p.Capture === true ? 2 : 1, ReturnCode: '6', ReturnMessage: 'Operation Successful' };
    const approved = outcome.Status !== 3;
    const sale: LocalCieloSale = {
      MerchantOrderId: String(body.MerchantOrderId),
      Customer: body.Customer ?? {},
      Payment: {
        PaymentId: randomUUID(),
        Type: 'CreditCard',
        Amount: p.Amount,
        Installments: p.Installments ?? 1,
        Capture: p.Capture === true,
        Currency: 'BRL',
        Country: 'BRA',
        ReceivedDate: cieloDate(),
        ...(approved ? { CapturedAmount: p.Capture === true ? p.Amount : undefined, CapturedDate: p.Capture === true ? cieloDate() : undefined } : {}),
        ...(approved ? { ProofOfSale: String(Math.floor(Math.random() * 1e6)), Tid: randomUUID().replace(/-/g, '').slice(0, 20), AuthorizationCode: String(100000 + sales.length) } : {}),
        ...outcome,
        CreditCard: { CardNumber: `${number.slice(0, 6)}******${number.slice(-4)}`, Holder: card.Holder, ExpirationDate: card.ExpirationDate, Brand: card.Brand },
      },
    };
    sales.push(sale);
    byId.set(sale.Payment.PaymentId, sale);
    if (number.endsWith('0119')) {
      // Recorded, never answered: the connection dies before the response.
      setTimeout(() => res.socket?.destroy(), opts.silentDropMs ?? 150);
      return true;
    }
    send(res, 201, sale);
    return true;
  };

  const createBoleto = (body: Json, res: ServerResponse): void => {
    const p = body.Payment as Json;
    const due = String(p.ExpirationDate ?? '');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(due)) return send(res, 400, errors([127, 'ExpirationDate is invalid']));
    if (!Number.isInteger(p.Amount) || p.Amount <= 0) return send(res, 400, errors([114, 'Amount is invalid']));
    const customer = (body.Customer ?? {}) as Json;
    if (!customer.Name || !/^\d{11}$|^\d{14}$/.test(String(customer.Identity ?? ''))) return send(res, 400, errors([132, 'Customer Identity is invalid']));
    const number = ++boletoNumber;
    let boleto;
    try {
      boleto = buildBoleto({ bankCode: BANK_CODES[String(p.Provider)] ?? '237', amountCents: p.Amount, dueDate: due, freeField: sandboxFreeField(number) });
    } catch (err) {
      return send(res, 400, errors([127, (err as Error).message]));
    }
    const paymentId = randomUUID();
    const sale: LocalCieloSale = {
      MerchantOrderId: String(body.MerchantOrderId),
      Customer: customer,
      Payment: {
        PaymentId: paymentId,
        Type: 'Boleto',
        Amount: p.Amount,
        Provider: p.Provider,
        ExpirationDate: due,
        Instructions: p.Instructions,
        BoletoNumber: String(number),
        BarCodeNumber: boleto.barcode,
        DigitableLine: boleto.digitableLine,
        Url: `https://127.0.0.1:${port}/boleto/${paymentId}`,
        ReceivedDate: cieloDate(),
        Status: 1,
        ReturnCode: '0',
        ReturnMessage: 'Operation Successful',
        Currency: 'BRL',
        Country: 'BRA',
      },
    };
    sales.push(sale);
    byId.set(paymentId, sale);
    send(res, 201, sale);
  };

  const voidSale = (sale: LocalCieloSale, amountParam: string | null, res: ServerResponse): void => {
    const p = sale.Payment;
    if (p.Type !== 'CreditCard' || (p.Status !== 1 && p.Status !== 2)) return send(res, 400, errors([308, 'Transaction not available to void']));
    const remaining = p.Amount - (p.VoidedAmount ?? 0);
    const amount = amountParam === null ? remaining : Number(amountParam);
    if (!Number.isInteger(amount) || amount <= 0 || amount > remaining) return send(res, 400, errors([115, 'Void amount is invalid']));
    p.VoidedAmount = (p.VoidedAmount ?? 0) + amount;
    p.VoidedDate = cieloDate();
    if (p.VoidedAmount >= p.Amount) p.Status = 10;
    if (dropVoidAnswer) {
      dropVoidAnswer = false;
      res.socket?.destroy();
      return;
    }
    send(res, 200, { Status: p.Status, ReasonCode: 0, ReasonMessage: 'Successful', ProviderReturnCode: '9', ProviderReturnMessage: 'Operation Successful', ReturnCode: '9', ReturnMessage: 'Operation Successful' });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'https://127.0.0.1');
    requests.push({ method: req.method ?? '', url: url.pathname + url.search, headers: { ...req.headers } });
    const boletoPage = /^\/boleto\/([0-9a-f-]{36})$/.exec(url.pathname);
    if (boletoPage && req.method === 'GET') {
      const sale = byId.get(boletoPage[1]!);
      if (!sale) return send(res, 404);
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><body>Boleto ${sale.Payment.DigitableLine}</body></html>`);
      return;
    }
    if (failing) return send(res, 503, errors([500, 'Service Unavailable']));
    if (req.headers.merchantid !== opts.merchantId || req.headers.merchantkey !== opts.merchantKey) {
      return send(res, 401, errors([132, 'MerchantId or MerchantKey is invalid']));
    }
    const path = url.pathname.replace(/\/+$/, '');
    if (path === '/api/1/sales' && req.method === 'POST') {
      const body = (await readJson(req)) as Json | null | undefined;
      if (!body || typeof body !== 'object' || !body.Payment || !/^[0-9A-Za-z]{1,50}$/.test(String(body.MerchantOrderId ?? ''))) {
        return send(res, 400, errors([121, 'MerchantOrderId or Payment is invalid']));
      }
      // The manual's boleto table: MerchantOrderId at most 27 characters for Bradesco, 50 for Banco do Brasil.
      const boletoMax = String(body.Payment.Provider ?? '').startsWith('Bradesco') ? 27 : 50;
      if (body.Payment.Type === 'Boleto' && String(body.MerchantOrderId).length > boletoMax) {
        return send(res, 400, errors([121, `MerchantOrderId is longer than ${boletoMax} characters for ${String(body.Payment.Provider)}`]));
      }
      if (body.Payment.Type === 'CreditCard') return void createCard(body, res);
      if (body.Payment.Type === 'Boleto') return createBoleto(body, res);
      return send(res, 400, errors([104, 'Payment Type is invalid']));
    }
    const voidMatch = /^\/api\/1\/sales\/([^/]+)\/void$/.exec(path);
    if (voidMatch && req.method === 'PUT') {
      const sale = byId.get(voidMatch[1]!);
      return sale ? voidSale(sale, url.searchParams.get('amount'), res) : send(res, 404);
    }
    if (path === '/query/1/sales' && req.method === 'GET') {
      const orderId = url.searchParams.get('merchantOrderId') ?? '';
      const found = sales.filter((s) => s.MerchantOrderId === orderId);
      if (found.length === 0) return send(res, 404);
      return send(res, 200, { Payments: found.map((s) => ({ PaymentId: s.Payment.PaymentId, ReceveidDate: s.Payment.ReceivedDate })) });
    }
    const byIdMatch = /^\/query\/1\/sales\/([^/]+)$/.exec(path);
    if (byIdMatch && req.method === 'GET') {
      const sale = byId.get(byIdMatch[1]!);
      return sale ? send(res, 200, sale) : send(res, 404);
    }
    send(res, 404);
  };

  const server = https.createServer({ cert: opts.ca.server.cert, key: opts.ca.server.key }, (req, res) => {
    handle(req, res).catch(() => send(res, 500));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  const base = `https://127.0.0.1:${port}`;

  const post = async (body: unknown, to: string | undefined): Promise<number> => {
    if (!to) throw new Error('no notification URL: pass notifyTo');
    const answer = await request(to, { method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await answer.body.dump();
    return answer.statusCode;
  };

  return {
    apiUrl: `${base}/api`,
    queryUrl: `${base}/query`,
    sales,
    requests,
    sale: (paymentId) => byId.get(paymentId),
    salesCount: (merchantOrderId) => sales.filter((s) => s.MerchantOrderId === merchantOrderId).length,
    async payBoleto(paymentId, payOpts = {}) {
      const sale = byId.get(paymentId);
      if (!sale || sale.Payment.Type !== 'Boleto') throw new Error(`no boleto ${paymentId}`);
      sale.Payment.Status = 2;
      sale.Payment.PaidAmount = payOpts.amountCents ?? sale.Payment.Amount;
      sale.Payment.CapturedDate = cieloDate();
      if (payOpts.notify === false) return undefined;
      return post({ PaymentId: paymentId, ChangeType: 1 }, payOpts.notifyTo ?? opts.notifyTo);
    },
    postNotification: (body, to) => post(body, to ?? opts.notifyTo),
    failing(on) {
      failing = on;
    },
    dropNextVoidAnswer() {
      dropVoidAnswer = true;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await agent.close();
    },
  };
}
