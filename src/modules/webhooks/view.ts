/** Registrations and delivery attempts as the API shows them. */
import type { WebhookRow } from '../../db/types.js';
import type { EventType } from '../events/index.js';
import type { AttemptRow } from './repo.js';

export interface WebhookView {
  id: string;
  url: string;
  events: EventType[];
  description?: string;
  active: boolean;
  createdAt: string;
}

export interface AttemptView {
  id: string;
  eventId: string;
  attempt: number;
  attemptedAt: string;
  statusCode?: number;
  error?: string;
  durationMs: number;
  succeeded: boolean;
}

export function webhookView(row: WebhookRow): WebhookView {
  return {
    id: row.id,
    url: row.url,
    events: row.events as EventType[],
    ...(row.description !== null ? { description: row.description } : {}),
    active: row.active,
    createdAt: row.created_at.toISOString(),
  };
}

export function attemptView(r: AttemptRow): AttemptView {
  return {
    id: r.id,
    eventId: r.event_id,
    attempt: r.attempt,
    attemptedAt: r.attempted_at.toISOString(),
    ...(r.status_code !== null ? { statusCode: r.status_code } : {}),
    ...(r.error !== null ? { error: r.error } : {}),
    durationMs: r.duration_ms,
    succeeded: r.succeeded,
  };
}
