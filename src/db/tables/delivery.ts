/**
 * Table types (delivery) for Kysely: see ../types.ts.
 * What the API records for its callers: the event log (outbox), webhook registrations, deliveries and
 * attempts, and Idempotency-Key rows.
 */
import type { ColumnType } from 'kysely';
import type { Timestamp, Json } from './columns.js';

/** The outbox and event log: one row per event, written with the state change that caused it. */
export interface EventsTable {
  id: string;
  company_id: string;
  type: string;
  /** NULL for an event about something else than a transaction (webhook.disabled). */
  transaction_id: string | null;
  /** The event body exactly as delivered: {id, type, createdAt, data}. */
  body: string;
  created_at: Timestamp;
}

export interface WebhooksTable {
  id: string;
  company_id: string;
  url: string;
  events: Json<string[]>;
  description: string | null;
  /** The signing secret, sealed with AES-256-GCM (lib/aes-gcm.ts). */
  secret_sealed: string;
  active: boolean;
  created_at: Timestamp;
  deleted_at: Timestamp | null;
  /** The first failed attempt since the last success; NULL while deliveries succeed. */
  failing_since: Timestamp | null;
  /** When the registration was disabled for failing WEBHOOK_DISABLE_AFTER; NULL: enabled. */
  disabled_at: Timestamp | null;
  /** The dashboard member (users.id) who created it; null for the API's and older ones. */
  created_by: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One row per (event, registration): the unit that is retried. */
export interface WebhookDeliveriesTable {
  id: string;
  company_id: string;
  webhook_id: string;
  event_id: string;
  /** HELD: waiting for its disabled registration to be enabled again (shown as PENDING). */
  state: 'PENDING' | 'HELD' | 'SUCCEEDED' | 'FAILED' | 'CANCELED';
  attempts: number;
  next_attempt_at: Timestamp;
  /** Lease of the worker sending it; a crashed worker's lease runs out and another takes the delivery. */
  locked_until: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookAttemptsTable {
  id: string;
  company_id: string;
  delivery_id: string;
  webhook_id: string;
  event_id: string;
  attempt: number;
  attempted_at: Timestamp;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  succeeded: boolean;
}

export interface IdempotencyKeysTable {
  company_id: string;
  key: string;
  fingerprint: string;
  /** STARTED while the first request runs, DONE once its response is stored. */
  state: 'STARTED' | 'DONE';
  response_status: number | null;
  response_body: string | null;
  /** The claiming route's success status, stored when the key is claimed. */
  success_status: number;
  /** A STARTED row whose lease ran out belonged to a request that died; a retry may take it over. */
  locked_until: Timestamp;
  created_at: Timestamp;
}
