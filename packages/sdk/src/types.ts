/**
 * Request and result types read from the generated `paths`
 * (paths['/v2/…']['post']), so they follow the OpenAPI document whether or
 * not its operations have ids and its schemas names.
 */
import type { paths } from './openapi.js';

type Method = 'get' | 'post' | 'delete';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;

/** The JSON body of an operation (null, which the document allows for a body that may be left out, excluded). */
export type Body<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: infer R } ? Exclude<Json<NonNullable<R>>, null> : never;

/** The query parameters of an operation. */
export type Query<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

type SuccessStatus = 200 | 201 | 202 | 204;
type Success<P extends keyof paths, M extends Method> = Operation<P, M>['responses'][keyof Operation<P, M>['responses'] & SuccessStatus];

/** What an operation answers on success (void for 204). */
export type Result<P extends keyof paths, M extends Method> =
  Success<P, M> extends { content: { 'application/json': infer B } } ? B : void;

/** One element of a list answer's `data`. */
export type Item<P extends keyof paths> = Result<P, 'get'> extends { data: (infer T)[] } ? T : never;

export type PaymentIntent = Result<'/v2/payment-intents/{id}', 'get'>;
export type Transaction = Result<'/v2/transactions/{id}', 'get'>;
export type Receivable = Item<'/v2/receivables'>;
export type Refund = Result<'/v2/refunds/{id}', 'get'>;
export type PaymentLink = Result<'/v2/payment-links/{id}', 'get'>;
export type Webhook = Result<'/v2/webhooks/{id}', 'get'>;
/** A registration as created: the only answer that carries its `secret`. */
export type CreatedWebhook = Result<'/v2/webhooks', 'post'>;
export type Delivery = Item<'/v2/webhooks/{id}/deliveries'>;
/** An event as GET /v2/events/{id} returns it and as a webhook delivers it. */
export type WebhookEvent = Result<'/v2/events/{id}', 'get'>;
export type EventType = WebhookEvent['type'];
