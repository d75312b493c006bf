/**
 * @svc-payments/sdk: the payment collection API's TypeScript client. No
 * runtime dependency: fetch, AbortSignal and Web Crypto, as Node >= 20 and
 * browsers have them.
 */
export { Svc } from './client.js';
export type { RequestOptions, SvcOptions } from './http.js';
export { SvcApiError, SvcConnectionError, isSvcApiError, type ErrorCode, type ErrorDetail } from './errors.js';
export { PagedList, type Page } from './pagination.js';
export { constructEvent, WebhookVerificationError, type ConstructEventOptions, type WebhookHeaders, type WebhookVerificationReason } from './webhooks.js';
export type * from './types.js';
export type { components, paths } from './openapi.js';
