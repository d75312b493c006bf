/**
 * The client: one method per operation of the API, grouped by resource
 * (`svc.paymentIntents.create(body)`), typed by the OpenAPI document.
 * Every POST carries an Idempotency-Key (RequestOptions); lists return a
 * PagedList (await it for one page, `for await` it for every item).
 */
import { HttpClient, type Call, type RequestOptions, type SvcOptions } from './http.js';
import type { paths } from './openapi.js';
import { PagedList, type Page } from './pagination.js';
import type { Body, Query, Result } from './types.js';

type ListPath = {
  [P in keyof paths]: Result<P, 'get'> extends { data: { id: string }[]; hasMore: boolean } ? P : never;
}[keyof paths];

/** An id in a path: encoded, so an id can never reach another route. */
const seg = encodeURIComponent;

abstract class Resource {
  constructor(protected readonly http: HttpClient) {}

  protected call<T>(call: Call, opts?: RequestOptions): Promise<T> {
    return this.http.request<T>(call, opts);
  }

  /** A paged list of `path`, the query's startingAfter replaced by each page's last id after the first. */
  protected paged<P extends ListPath>(path: string, query: Query<P, 'get'> | undefined, opts?: RequestOptions) {
    type Item = Result<P, 'get'> extends Page<infer T> ? T & { id: string } : never;
    return new PagedList<Item>((startingAfter) =>
      this.call<Page<Item>>({ method: 'GET', path, query: { ...(query as Record<string, string | number | undefined>), ...(startingAfter ? { startingAfter } : {}) } }, opts),
    );
  }
}

class PaymentIntents extends Resource {
  /** POST /v2/payment-intents (with `confirm: true`, Pix and boleto are confirmed at once). */
  create(body: Body<'/v2/payment-intents', 'post'>, opts?: RequestOptions) {
    return this.call<Result<'/v2/payment-intents', 'post'>>({ method: 'POST', path: '/v2/payment-intents', body }, opts);
  }

  /** GET /v2/payment-intents/{id} */
  get(id: string, opts?: RequestOptions) {
    return this.call<Result<'/v2/payment-intents/{id}', 'get'>>({ method: 'GET', path: `/v2/payment-intents/${seg(id)}` }, opts);
  }

  /** POST /v2/payment-intents/{id}/confirm: no body for Pix and boleto, `{token}` for a card. */
  confirm(id: string, body?: Body<'/v2/payment-intents/{id}/confirm', 'post'>, opts?: RequestOptions) {
    return this.call<Result<'/v2/payment-intents/{id}/confirm', 'post'>>({ method: 'POST', path: `/v2/payment-intents/${seg(id)}/confirm`, body }, opts);
  }

  /** POST /v2/payment-intents/{id}/cancel */
  cancel(id: string, opts?: RequestOptions) {
    return this.call<Result<'/v2/payment-intents/{id}/cancel', 'post'>>({ method: 'POST', path: `/v2/payment-intents/${seg(id)}/cancel` }, opts);
  }
}

class Transactions extends Resource {
  /** GET /v2/transactions, newest first. */
  list(query?: Query<'/v2/transactions', 'get'>, opts?: RequestOptions) {
    return this.paged<'/v2/transactions'>('/v2/transactions', query, opts);
  }

  /** GET /v2/transactions/{id} */
  get(id: string, opts?: RequestOptions) {
    return this.call<Result<'/v2/transactions/{id}', 'get'>>({ method: 'GET', path: `/v2/transactions/${seg(id)}` }, opts);
  }
}

class Receivables extends Resource {
  /** GET /v2/receivables */
  list(query?: Query<'/v2/receivables', 'get'>, opts?: RequestOptions) {
    return this.paged<'/v2/receivables'>('/v2/receivables', query, opts);
  }
}

class Refunds extends Resource {
  /** POST /v2/transactions/{id}/refunds */
  create(transactionId: string, body: Body<'/v2/transactions/{id}/refunds', 'post'>, opts?: RequestOptions) {
    return this.call<Result<'/v2/transactions/{id}/refunds', 'post'>>({ method: 'POST', path: `/v2/transactions/${seg(transactionId)}/refunds`, body }, opts);
  }

  /** GET /v2/transactions/{id}/refunds, newest first. */
  list(transactionId: string, query?: Query<'/v2/transactions/{id}/refunds', 'get'>, opts?: RequestOptions) {
    return this.paged<'/v2/transactions/{id}/refunds'>(`/v2/transactions/${seg(transactionId)}/refunds`, query, opts);
  }

  /** GET /v2/refunds/{id} */
  get(id: string, opts?: RequestOptions) {
    return this.call<Result<'/v2/refunds/{id}', 'get'>>({ method: 'GET', path: `/v2/refunds/${seg(id)}` }, opts);
  }
}

class PaymentLinks extends Resource {
  /** POST /v2/payment-links */
  create(body: Body<'/v2/payment-links', 'post'>, opts?: RequestOptions) {
    return this.call<Result<'/v2/payment-links', 'post'>>({ method: 'POST', path: '/v2/payment-links', body }, opts);
  }

  /** GET /v2/payment-links */
  list(query?: Query<'/v2/payment-links', 'get'>, opts?: RequestOptions) {
    return this.paged<'/v2/payment-links'>('/v2/payment-links', query, opts);
  }

  /** GET /v2/payment-links/{id} */
  get(id: string, opts?: RequestOptions) {
    return this.call<Result<'/v2/payment-links/{id}', 'get'>>({ method: 'GET', path: `/v2/payment-links/${seg(id)}` }, opts);
  }

  /** POST /v2/payment-links/{id}/cancel */
  cancel(id: string, opts?: RequestOptions) {
    return this.call<Result<'/v2/payment-links/{id}/cancel', 'post'>>({ method: 'POST', path: `/v2/payment-links/${seg(id)}/cancel` }, opts);
  }
}

class Webhooks extends Resource {
  /** POST /v2/webhooks: the answer is the only one that carries the registration's `secret`. */
  create(body: Body<'/v2/webhooks', 'post'>, opts?: RequestOptions) {
    return this.call<Result<'/v2/webhooks', 'post'>>({ method: 'POST', path: '/v2/webhooks', body }, opts);
  }

  /** GET /v2/webhooks: every active registration (one page, without secrets). */
  list(opts?: RequestOptions) {
    return this.call<Result<'/v2/webhooks', 'get'>>({ method: 'GET', path: '/v2/webhooks' }, opts);
  }

  /** GET /v2/webhooks/{id} */
  get(id: string, opts?: RequestOptions) {
    return this.call<Result<'/v2/webhooks/{id}', 'get'>>({ method: 'GET', path: `/v2/webhooks/${seg(id)}` }, opts);
  }

  /** DELETE /v2/webhooks/{id} */
  delete(id: string, opts?: RequestOptions) {
    return this.call<Result<'/v2/webhooks/{id}', 'delete'>>({ method: 'DELETE', path: `/v2/webhooks/${seg(id)}` }, opts);
  }

  /** POST /v2/webhooks/{id}/enable: a registration disabled for failing is enabled again; what waited for it is sent. */
  enable(id: string, opts?: RequestOptions) {
    return this.call<Result<'/v2/webhooks/{id}/enable', 'post'>>({ method: 'POST', path: `/v2/webhooks/${seg(id)}/enable` }, opts);
  }

  /** GET /v2/webhooks/{id}/deliveries: every delivery attempt, newest first. */
  deliveries(id: string, query?: Query<'/v2/webhooks/{id}/deliveries', 'get'>, opts?: RequestOptions) {
    return this.paged<'/v2/webhooks/{id}/deliveries'>(`/v2/webhooks/${seg(id)}/deliveries`, query, opts);
  }
}

class Events extends Resource {
  /** GET /v2/events, newest first. */
  list(query?: Query<'/v2/events', 'get'>, opts?: RequestOptions) {
    return this.paged<'/v2/events'>('/v2/events', query, opts);
  }

  /** GET /v2/events/{id}: the event exactly as delivered. */
  get(id: string, opts?: RequestOptions) {
    return this.call<Result<'/v2/events/{id}', 'get'>>({ method: 'GET', path: `/v2/events/${seg(id)}` }, opts);
  }

  /** POST /v2/events/{id}/resend: to one registration (`{webhookId}`), or to every one that selected the type. */
  resend(id: string, body?: Body<'/v2/events/{id}/resend', 'post'>, opts?: RequestOptions) {
    return this.call<Result<'/v2/events/{id}/resend', 'post'>>({ method: 'POST', path: `/v2/events/${seg(id)}/resend`, body }, opts);
  }
}

/** The sandbox's routes (a sandbox key only): move a transaction as a buyer or the acquirer would. */
class Sandbox extends Resource {
  /** POST /v2/sandbox/transactions/{id}/pay: PENDING → PAID. */
  pay(transactionId: string, opts?: RequestOptions) {
    return this.move('pay', transactionId, opts);
  }

  /** POST /v2/sandbox/transactions/{id}/fail: PENDING → CANCELED. */
  fail(transactionId: string, opts?: RequestOptions) {
    return this.move('fail', transactionId, opts);
  }

  /** POST /v2/sandbox/transactions/{id}/settle: pays all of a PAID transaction's receivables now. */
  settle(transactionId: string, opts?: RequestOptions) {
    return this.move('settle', transactionId, opts);
  }

  /** POST /v2/sandbox/transactions/{id}/chargeback */
  chargeback(transactionId: string, opts?: RequestOptions) {
    return this.move('chargeback', transactionId, opts);
  }

  private move(action: 'pay' | 'fail' | 'settle' | 'chargeback', transactionId: string, opts?: RequestOptions) {
    return this.call<Result<`/v2/sandbox/transactions/{id}/${typeof action}`, 'post'>>(
      { method: 'POST', path: `/v2/sandbox/transactions/${seg(transactionId)}/${action}` },
      opts,
    );
  }
}

/**
 * The API's client.
 *
 *     const svc = new Svc({ apiKey: process.env.SVC_API_KEY!, baseUrl: 'http://localhost:3000' });
 *     const intent = await svc.paymentIntents.create({ ... });
 */
export class Svc {
  readonly paymentIntents: PaymentIntents;
  readonly transactions: Transactions;
  readonly receivables: Receivables;
  readonly refunds: Refunds;
  readonly paymentLinks: PaymentLinks;
  readonly webhooks: Webhooks;
  readonly events: Events;
  readonly sandbox: Sandbox;

  constructor(options: SvcOptions) {
    const http = new HttpClient(options);
    this.paymentIntents = new PaymentIntents(http);
    this.transactions = new Transactions(http);
    this.receivables = new Receivables(http);
    this.refunds = new Refunds(http);
    this.paymentLinks = new PaymentLinks(http);
    this.webhooks = new Webhooks(http);
    this.events = new Events(http);
    this.sandbox = new Sandbox(http);
  }
}
