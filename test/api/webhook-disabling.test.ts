/**
 * A registration whose deliveries have all failed for WEBHOOK_DISABLE_AFTER
 * (5 days by default) is disabled, as Svix does (issue 28): its status says
 * so, the seller's event log gets webhook.disabled (delivered to the other
 * registrations that selected it), its deliveries wait, and POST
 * /v2/webhooks/{id}/enable sends them. Driven on the manual clock with a
 * schedule of daily retries, so one delivery fails for days.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { engines } from '../helpers/db.js';
import { productionEnv, startTestApp, type TestApp } from '../helpers/app.js';
import type { Sender, SendResult } from '../../src/modules/webhooks/index.js';
import { pixIntent } from '../helpers/fixtures.js';
import { assertError } from '../helpers/assert.js';
import { loadConfig } from '../../src/config.js';

type Json = Record<string, any>;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Answers per URL: `down` URLs fail with 500 until brought up; every request recorded with its event type. */
class Receivers implements Sender {
  readonly calls: { url: string; type: string; body: string }[] = [];
  readonly down = new Set<string>();
  async send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    this.calls.push({ url, type: headers['x-svc-event']!, body });
    return { statusCode: this.down.has(url) ? 500 : 200 };
  }
  to(url: string) {
    return this.calls.filter((c) => c.url === url);
  }
}

for (const engine of engines()) {
  describe(`webhook disabling on ${engine}`, () => {
    let t: TestApp;
    const receivers = new Receivers();
    before(async () => {
      t = await startTestApp(engine, { sender: receivers, env: { ...productionEnv(), WEBHOOK_RETRY_SCHEDULE: '1d,1d,1d,1d,1d,1d,1d' } });
    });
    after(() => t.close());

    async function register(url: string, events: string[]): Promise<Json> {
      const res = await t.call({ method: 'POST', url: '/v2/webhooks', payload: { url, events } });
      assert.equal(res.statusCode, 201, res.body);
      return res.json();
    }
    async function get(id: string): Promise<Json> {
      const res = await t.call({ method: 'GET', url: `/v2/webhooks/${id}` });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    }
    async function sale(): Promise<void> {
      assert.equal((await t.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ confirm: true }) })).statusCode, 201);
    }
    const round = () => t.services.deliveries.runOnce();
    async function remove(...ids: string[]): Promise<void> {
      for (const id of ids) assert.equal((await t.call({ method: 'DELETE', url: `/v2/webhooks/${id}` })).statusCode, 204);
    }

    test('failing for 5 days disables it: status, webhook.disabled on the log and to another registration; enable sends what waited', async () => {
      const url = 'https://down.example.com/hook';
      const watcherUrl = 'https://ops.example.com/hook';
      receivers.down.add(url);
      const hook = await register(url, ['transaction.created']);
      const watcher = await register(watcherUrl, ['webhook.disabled']);
      assert.deepEqual([hook.status, 'disabledAt' in hook], ['enabled', false]);
      await sale();
      const firstFailure = t.clock.now();
      assert.equal(await round(), 1);
      for (let day = 1; day <= 4; day++) {
        t.clock.advance(DAY);
        assert.equal(await round(), 1);
        assert.equal((await get(hook.id)).status, 'enabled', `still enabled after ${day} days of failures`);
      }
      // A sale made while it fails joins the run; the fifth day's failure disables the registration.
      await sale();
      assert.equal(await round(), 1);
      t.clock.advance(DAY);
      assert.equal(await round(), 2);
      const disabledAt = t.clock.now().toISOString();
      const shown = await get(hook.id);
      assert.deepEqual([shown.status, shown.disabledAt, shown.active], ['disabled', disabledAt, true]);
      const listed = (await t.call({ method: 'GET', url: '/v2/webhooks' })).json().data.find((w: Json) => w.id === hook.id);
      assert.equal(listed.status, 'disabled');

      // The event log has webhook.disabled naming it; the watcher gets it, signed like any event.
      const log = (await t.call({ method: 'GET', url: '/v2/events', query: { type: 'webhook.disabled' } })).json();
      assert.equal(log.data.length, 1);
      const [event] = log.data;
      assert.deepEqual(event.data, { webhook: { id: hook.id, url, status: 'disabled', failingSince: firstFailure.toISOString(), disabledAt } });
      assert.equal(event.createdAt, disabledAt);
      assert.equal(await round(), 1);
      const [notice] = receivers.to(watcherUrl);
      assert.equal(notice!.type, 'webhook.disabled');
      assert.equal(notice!.body, (await t.call({ method: 'GET', url: `/v2/events/${event.id}` })).body);

      // Disabled: nothing more goes to it, whatever the clock, and new events wait for it too.
      const sentBefore = receivers.to(url).length;
      await sale();
      t.clock.advance(3 * DAY);
      assert.equal(await round(), 0);
      assert.equal(receivers.to(url).length, sentBefore);
      const waiting = (await t.call({ method: 'GET', url: `/v2/webhooks/${hook.id}/deliveries` })).json().data as Json[];
      assert.deepEqual(
        waiting.map((d) => [d.status, 'nextAttemptAt' in d]),
        [
          ['PENDING', false],
          ['PENDING', false],
          ['PENDING', false],
        ],
        'the two in their retries and the new one wait, with no time set',
      );

      // Enabled again (and again: the same answer), with the receiver back: what waited is sent at once.
      receivers.down.delete(url);
      const enabled = await t.call({ method: 'POST', url: `/v2/webhooks/${hook.id}/enable` });
      assert.equal(enabled.statusCode, 200, enabled.body);
      assert.deepEqual([enabled.json().status, 'disabledAt' in enabled.json()], ['enabled', false]);
      assert.deepEqual((await t.call({ method: 'POST', url: `/v2/webhooks/${hook.id}/enable` })).json(), enabled.json());
      assert.equal(await round(), 3);
      assert.equal(receivers.to(url).length, sentBefore + 3);
      const sent = (await t.call({ method: 'GET', url: `/v2/webhooks/${hook.id}/deliveries` })).json().data as Json[];
      assert.deepEqual(sent.map((d) => d.status), ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']);
      assert.equal((await get(hook.id)).status, 'enabled');
      await remove(hook.id, watcher.id);
    });

    test('one success ends the run of failures: 4 days failing, a 200, 4 more days failing stays enabled', async () => {
      const url = 'https://flaky.example.com/hook';
      receivers.down.add(url);
      const hook = await register(url, ['transaction.created']);
      await sale();
      assert.equal(await round(), 1);
      for (let day = 1; day <= 4; day++) {
        t.clock.advance(DAY);
        if (day === 4) receivers.down.delete(url);
        assert.equal(await round(), 1);
      }
      receivers.down.add(url);
      await sale();
      assert.equal(await round(), 1);
      for (let day = 1; day <= 4; day++) {
        t.clock.advance(DAY);
        assert.equal(await round(), 1);
      }
      assert.equal((await get(hook.id)).status, 'enabled', 'failing for 4 days since the success, not 8');
      t.clock.advance(DAY);
      assert.equal(await round(), 1);
      assert.equal((await get(hook.id)).status, 'disabled', 'and the fifth day since the success disables it');
      await remove(hook.id);
      assert.equal((await t.db.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', hook.id).where('state', 'in', ['PENDING', 'HELD']).execute()).length, 0, 'DELETE cancels held deliveries too');
    });

    test("enable: 404 for an unknown or another company's registration, 401 without a key", async () => {
      assertError(await t.call({ method: 'POST', url: '/v2/webhooks/whk_00000000000000000000000000/enable' }), 404, 'NOT_FOUND');
      assertError(await t.call({ method: 'POST', url: '/v2/webhooks/nope/enable' }), 404, 'NOT_FOUND');
      assert.equal((await t.app.inject({ method: 'POST', url: '/v2/webhooks/whk_00000000000000000000000000/enable' })).statusCode, 401);
    });
  });
}

describe('WEBHOOK_DISABLE_AFTER', () => {
  test('5 days unless set; one duration of 1 h to 90 d', () => {
    assert.equal(loadConfig({}).webhookDisableAfterMs, 5 * DAY);
    assert.equal(loadConfig({ WEBHOOK_DISABLE_AFTER: '36h' }).webhookDisableAfterMs, 36 * HOUR);
    for (const bad of ['0d', '59m', '91d', '5', '5d,6d', 'never']) {
      assert.throws(() => loadConfig({ WEBHOOK_DISABLE_AFTER: bad }), /WEBHOOK_DISABLE_AFTER/, bad);
    }
  });
});
