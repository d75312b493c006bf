import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextAttemptDelay, outcomesByWebhook, retryAfterMs, RETRY_JITTER } from './rules.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const SCHEDULE = [MIN, 5 * MIN, 30 * MIN, 2 * HOUR, 12 * HOUR];
const NOW = new Date('2026-11-21T12:00:00.000Z');

test('a retry waits its scheduled delay plus up to a fifth of it, as the random source says', () => {
  assert.equal(RETRY_JITTER, 0.2);
  assert.equal(nextAttemptDelay({ retryDelaysMs: SCHEDULE, attempt: 1, random: 0 }), MIN);
  assert.equal(nextAttemptDelay({ retryDelaysMs: SCHEDULE, attempt: 1, random: 0.5 }), MIN + 6_000);
  assert.equal(nextAttemptDelay({ retryDelaysMs: SCHEDULE, attempt: 4, random: 0.999 }), 2 * HOUR + Math.floor(2 * HOUR * 0.2 * 0.999));
  // A source outside [0, 1) cannot move a retry sooner or past the jitter.
  assert.equal(nextAttemptDelay({ retryDelaysMs: SCHEDULE, attempt: 1, random: -3 }), MIN);
  assert.equal(nextAttemptDelay({ retryDelaysMs: SCHEDULE, attempt: 1, random: 7 }), MIN + 12_000);
  // Past the schedule: give up, whatever the receiver asked.
  assert.equal(nextAttemptDelay({ retryDelaysMs: SCHEDULE, attempt: 6, random: 0, retryAfterMs: MIN }), undefined);
  assert.equal(nextAttemptDelay({ retryDelaysMs: [], attempt: 1, random: 0, retryAfterMs: MIN }), undefined);
});

test("a receiver's Retry-After moves the retry later, never sooner than the schedule, never past its longest delay", () => {
  const delay = (attempt: number, retryAfter: number, random = 0) => nextAttemptDelay({ retryDelaysMs: SCHEDULE, attempt, random, retryAfterMs: retryAfter });
  assert.equal(delay(1, 10 * MIN), 10 * MIN);
  assert.equal(delay(1, 1_000), MIN, 'sooner than the schedule: the schedule');
  assert.equal(delay(1, 1_000, 0.5), MIN + 6_000, 'and its jitter');
  assert.equal(delay(1, 7 * 24 * HOUR), 12 * HOUR, 'later than the longest delay: the longest');
  assert.equal(delay(5, 13 * HOUR, 0.5), 12 * HOUR + Math.floor(12 * HOUR * 0.1), 'the last step keeps its jitter');
});

test('Retry-After is read on 429 and 503 only, as seconds or an HTTP date, and nothing else', () => {
  assert.equal(retryAfterMs(429, '120', NOW), 120_000);
  assert.equal(retryAfterMs(503, ' 0 ', NOW), 0);
  assert.equal(retryAfterMs(503, 'Sat, 21 Nov 2026 15:00:00 GMT', NOW), 3 * HOUR);
  assert.equal(retryAfterMs(429, 'Saturday, 21-Nov-26 13:00:00 GMT', NOW), HOUR, 'the obsolete RFC 850 form');
  assert.equal(retryAfterMs(500, '120', NOW), undefined);
  assert.equal(retryAfterMs(200, '120', NOW), undefined);
  assert.equal(retryAfterMs(429, undefined, NOW), undefined);
  for (const bad of ['', '-5', '1.5', '12e3', '99999999999', 'soon', '2026-11-21T15:00:00Z', 'Sat, 21 Nov 2026 11:00:00 GMT', `Sat, 21 Nov 2026 15:00:00 GMT${' '.repeat(60)}`]) {
    assert.equal(retryAfterMs(429, bad, NOW), undefined, JSON.stringify(bad));
  }
});

test("a batch's attempts per registration: any success makes it answering; else its latest failure's time", () => {
  const at = (s: number) => new Date(NOW.getTime() + s * 1000);
  const attempt = (webhook_id: string, succeeded: boolean, s: number) => ({ attempt: { webhook_id, succeeded }, next: { at: at(s) } });
  assert.deepEqual(outcomesByWebhook([attempt('w1', false, 2), attempt('w2', false, 1), attempt('w1', true, 1), attempt('w2', false, 3), attempt('w1', false, 0)]), [
    { webhookId: 'w1', ok: true, at: at(2) },
    { webhookId: 'w2', ok: false, at: at(3) },
  ]);
  assert.deepEqual(outcomesByWebhook([]), []);
});
