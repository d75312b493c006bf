/** Registrations and delivery attempts as the API shows them. */
import type { WebhookRow } from '../../db/types.js';
import type { EventType } from '../events/index.js';
import type { AttemptRow, DeliveryRow } from './repo.js';

export interface WebhookView {
  id: string;
  url: string;
  events: EventType[];
  description?: string;
  active: boolean;
  status: 'enabled' | 'disabled';
  disabledAt?: string;
  createdAt: string;
}

export interface AttemptView {
  attempt: number;
  attemptedAt: string;
  statusCode?: number;
  error?: string;
  durationMs: number;
  succeeded: boolean;
}

/**
 * One delivery of an event to a registration (the `dlv_` id a resend
 * answers), its latest attempt's outcome at the top, every attempt in
 * `attempts`; `attempt` is 0 and the outcome fields absent until it is sent.
 */
export interface DeliveryView extends Partial<Omit<AttemptView, 'attempt' | 'succeeded'>> {
  id: string;
  eventId: string;
  status: Exclude<DeliveryRow['state'], 'HELD'>;
  attempt: number;
  succeeded: boolean;
  nextAttemptAt?: string;
  attempts: AttemptView[];
}

/**
 * A registration's URL as shown to someone who may not read its secrets: a
 * query often carries a token (`?secret=…`), so `full` (developers.read)
 * shows scheme, host and path, anything else the origin only.
 */
export function shownWebhookUrl(url: string, full: boolean): string {
  if (!URL.canParse(url)) return '';
  const parsed = new URL(url);
  return full ? `${parsed.origin}${parsed.pathname}` : parsed.origin;
}

export function webhookView(row: WebhookRow): WebhookView {
  return {
    id: row.id,
    url: row.url,
    events: row.events as EventType[],
    ...(row.description !== null ? { description: row.description } : {}),
    active: row.active,
    status: row.disabled_at === null ? 'enabled' : 'disabled',
    ...(row.disabled_at !== null ? { disabledAt: row.disabled_at.toISOString() } : {}),
    createdAt: row.created_at.toISOString(),
  };
}

function attemptView(r: AttemptRow): AttemptView {
  return {
    attempt: r.attempt,
    attemptedAt: r.attempted_at.toISOString(),
    ...(r.status_code !== null ? { statusCode: r.status_code } : {}),
    ...(r.error !== null ? { error: r.error } : {}),
    durationMs: r.duration_ms,
    succeeded: r.succeeded,
  };
}

/** A delivery with its attempts, the latest first. */
export function deliveryView(d: DeliveryRow, attempts: AttemptRow[]): DeliveryView {
  const views = attempts.map(attemptView);
  const latest = views[0];
  return {
    id: d.id,
    eventId: d.event_id,
    // A delivery held for its disabled registration is pending, with no time set until it is enabled again.
    status: d.state === 'HELD' ? 'PENDING' : d.state,
    ...(latest ?? { attempt: 0 }),
    succeeded: d.state === 'SUCCEEDED',
    ...(d.state === 'PENDING' ? { nextAttemptAt: d.next_attempt_at.toISOString() } : {}),
    attempts: views,
  };
}
