/**
 * What `svc listen` and `svc trigger` share: they are HTTP clients of a
 * running service, authenticated with a company's API key (`--api-key`,
 * default SVC_API_KEY), at `--api-url` (default SVC_API_URL, else
 * http://localhost:$PORT, else port 3000). They never open the database.
 */
import { randomUUID } from 'node:crypto';

export class ClientUsageError extends Error {}

export interface ApiTarget {
  url: string;
  key: string;
}

export function apiTarget(values: { 'api-key'?: string | undefined; 'api-url'?: string | undefined }, env: NodeJS.ProcessEnv): ApiTarget {
  const key = values['api-key'] ?? env.SVC_API_KEY;
  if (!key) throw new ClientUsageError('give the API key of the company: --api-key K or SVC_API_KEY');
  const url = values['api-url'] ?? env.SVC_API_URL ?? `http://localhost:${env.PORT ?? '3000'}`;
  if (!URL.canParse(url)) throw new ClientUsageError(`--api-url is not a URL: ${url}`);
  return { url: url.replace(/\/+$/, ''), key };
}

/** A refusal of the API: its status and error body as answered. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`the API answered ${status}: ${body}`);
  }
}

/** One call; a POST carries a new Idempotency-Key. Answers the parsed JSON body, throws ApiError on a non-2xx answer. */
export async function callApi<T>(api: ApiTarget, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${api.key}` };
  if (method === 'POST') headers['idempotency-key'] = randomUUID();
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${api.url}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  if (!res.ok) throw new ApiError(res.status, text);
  return JSON.parse(text) as T;
}
