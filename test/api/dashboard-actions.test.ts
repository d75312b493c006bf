/**
 * The dashboard's changes and reads beyond the transaction list: a refund
 * and its Idempotency-Key, each role's limits on every route (403, nothing
 * done), tenant isolation (404), keys (created, used, revoked), webhooks
 * (secret shown once, deliveries, test, resend), links (with their QR code),
 * the home page, a sale's page with its timeline, and paidAt in an event.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { KEY_CACHE_MS } from '../../src/http/auth.js';
import { deliveredBody } from '../../src/modules/events/index.js';
import { may, ROLES, type Permission } from '../../src/modules/users/roles.js';
import type { Sender } from '../../src/modules/webhooks/index.js';
import { engines } from '../helpers/db.js';
import { settled } from '../helpers/outcome.js';
import { startDashboardApp, type DashboardTestApp } from '../helpers/dashboard.js';
import { assertError } from '../helpers/assert.js';
import { pixIntent } from '../helpers/fixtures.js';

type Json = Record<string, any>;
// jsqr is CommonJS; under NodeNext its default import is typed as the module object.
const jsQR = jsQRModule.default;

/** Answers 200 to every delivery and counts them. */
const sender: Sender & { sent: number } = {
  sent: 0,
  async send() {
    this.sent++;
    return { statusCode: 200 };
  },
};

for (const engine of engines()) {
  describe(`dashboard actions on ${engine}`, () => {
    let t: DashboardTestApp;
    let otherCompany: string;

    async function paidSale(overrides: Json = {}): Promise<Json> {
      const res = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: { ...pixIntent(overrides), confirm: true } });
      assert.equal(res.statusCode, 201, res.body);
      const paid = await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${res.json().transaction.id}/pay` });
      assert.equal(paid.statusCode, 200, paid.body);
      return paid.json();
    }
    const counts = async () => {
      const count = async (table: 'refunds' | 'payment_links' | 'api_keys' | 'webhooks' | 'webhook_deliveries', where?: [string, unknown]) => {
        let q = t.db.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
        if (where) q = q.where(where[0] as never, '=', where[1] as never);
        return Number((await q.executeTakeFirstOrThrow()).n);
      };
      return {
        refunds: await count('refunds'),
        links: await count('payment_links'),
        canceledLinks: Number((await t.db.db.selectFrom('payment_links').select((eb) => eb.fn.countAll<number>().as('n')).where('canceled_at', 'is not', null).executeTakeFirstOrThrow()).n),
        keys: await count('api_keys'),
        revokedKeys: Number((await t.db.db.selectFrom('api_keys').select((eb) => eb.fn.countAll<number>().as('n')).where('revoked_at', 'is not', null).executeTakeFirstOrThrow()).n),
        webhooks: await count('webhooks', ['active', true]),
        deliveries: await count('webhook_deliveries'),
        paid: Number((await t.db.db.selectFrom('transactions').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'PAID').executeTakeFirstOrThrow()).n),
        audit: (await t.auditEntries()).length,
      };
    };

    before(async () => {
      t = await startDashboardApp(engine, { sender });
      otherCompany = settled(await t.services.companies.createCompany('Outra Loja Ltda', '00000000000191')).id;
    });
    after(async () => {
      await t.close();
    });

    test('a refund goes through the refund rules once: a replay of its Idempotency-Key answers the same bytes and refunds nothing more', async () => {
      const sale = await paidSale();
      const key = 'refund-click-1';
      const first = await t.dash({ method: 'POST', url: `/transactions/${sale.id}/refunds`, headers: { 'idempotency-key': key }, payload: { amount: 2_500, reason: 'Devolução' } });
      assert.equal(first.statusCode, 201, first.body);
      assert.equal(first.json().amountCents, 2_500);
      assert.equal(first.json().transactionId, sale.id);
      const again = await t.dash({ method: 'POST', url: `/transactions/${sale.id}/refunds`, headers: { 'idempotency-key': key }, payload: { amount: 2_500, reason: 'Devolução' } });
      assert.equal(again.statusCode, 201);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.body, first.body);
      const rows = await t.db.db.selectFrom('refunds').select('id').where('transaction_id', '=', sale.id).execute();
      assert.deepEqual(rows.map((r) => r.id), [first.json().id]);
      const audited = (await t.auditEntries()).filter((e) => e.action === 'refund.created');
      assert.equal(audited.length, 1);
      assert.deepEqual(audited[0], { companyId: t.companyId, userId: await t.userIdOf('admin'), email: 'admin@loja.example', action: 'refund.created', target: first.json().id, ip: '127.0.0.1', details: { transactionId: sale.id, amount: 2_500 } });

      assertError(await t.dash({ method: 'POST', url: `/transactions/${sale.id}/refunds`, payload: { amount: 100 } }), 400, 'VALIDATION_ERROR', 'Idempotency-Key');
      assertError(await t.dash({ method: 'POST', url: `/transactions/${sale.id}/refunds`, headers: { 'idempotency-key': key }, payload: { amount: 100 } }), 422, 'IDEMPOTENCY_KEY_REUSED');
      assertError(await t.dash({ method: 'POST', url: `/transactions/${sale.id}/refunds`, headers: { 'idempotency-key': 'too-much' }, payload: { amount: 1_000_000 } }), 409, 'REFUND_EXCEEDS_AVAILABLE');
      assertError(await t.dash({ method: 'POST', url: `/transactions/${sale.id}/refunds`, headers: { 'idempotency-key': 'bad' }, payload: { amount: 0 } }), 400, 'VALIDATION_ERROR', 'amount');
      // The API's own key of the same text is another key: the dashboard's are kept apart.
      const api = await t.call({ method: 'POST', url: `/v2/transactions/${sale.id}/refunds`, headers: { 'idempotency-key': key }, payload: { amountCents: 100 } });
      assert.equal(api.statusCode, 201, api.body);
    });

    test("a sale's page: the transaction, its receivables, refunds, and each event with its webhook deliveries", async () => {
      const hook = await t.dash({ method: 'POST', url: '/webhooks', payload: { url: 'https://hooks.example/sale-page', events: ['transaction.paid'] } });
      assert.equal(hook.statusCode, 201, hook.body);
      const sale = await paidSale({ referenceId: 'sale-page' });
      await t.services.deliveries.runOnce();
      const res = await t.dash({ method: 'GET', url: `/transactions/${sale.id}` });
      assert.equal(res.statusCode, 200, res.body);
      const page = res.json();
      assert.deepEqual(page.transaction, (await t.call({ method: 'GET', url: `/v2/transactions/${sale.id}` })).json());
      assert.ok(page.transaction.paidAt);
      assert.deepEqual(page.receivables, page.transaction.split.receivables);
      assert.ok(page.receivables.length > 0);
      assert.deepEqual(page.refunds, []);
      assert.deepEqual(page.timeline.map((e: Json) => e.event.type), ['transaction.created', 'transaction.paid']);
      assert.deepEqual(page.timeline[0].deliveries, []);
      assert.deepEqual(page.timeline[1].deliveries, [{ webhookId: hook.json().id, url: 'https://hooks.example/sale-page', attempt: 1, status: 'SUCCEEDED', httpStatus: 200, at: t.clock.now().toISOString() }]);
      await t.dash({ method: 'DELETE', url: `/webhooks/${hook.json().id}` });
    });

    test("the dashboard's routes are not in the OpenAPI document", async () => {
      const doc = await t.app.inject({ method: 'GET', url: '/openapi.json' });
      assert.equal(doc.statusCode, 200);
      assert.ok(Object.keys(doc.json().paths).length > 10);
      assert.ok(!doc.body.includes('/dashboard'), 'no /dashboard path');
    });

    test('paidAt is in the API and in the transaction.paid event', async () => {
      const sale = await paidSale();
      assert.equal(sale.paidAt, t.clock.now().toISOString());
      const event = await t.db.db.selectFrom('events').select('body').where('transaction_id', '=', sale.id).where('type', '=', 'transaction.paid').executeTakeFirstOrThrow();
      assert.equal(JSON.parse(deliveredBody(event.body)).data.transaction.paidAt, sale.paidAt);
      const created = await t.db.db.selectFrom('events').select('body').where('transaction_id', '=', sale.id).where('type', '=', 'transaction.created').executeTakeFirstOrThrow();
      assert.equal(JSON.parse(deliveredBody(created.body)).data.transaction.paidAt, null);
    });

    test('simulate payment pays a pending Pix in the sandbox', async () => {
      const res = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: { ...pixIntent(), confirm: true } });
      const id = res.json().transaction.id;
      const paid = await t.dash({ method: 'POST', url: `/transactions/${id}/simulate-payment` });
      assert.equal(paid.statusCode, 200, paid.body);
      assert.equal(paid.json().status, 'PAID');
      const again = await t.dash({ method: 'POST', url: `/transactions/${id}/simulate-payment` });
      assert.equal(again.statusCode, 200, 'paying a PAID sale again answers it unchanged');
      assert.equal(await t.db.db.selectFrom('events').select('id').where('transaction_id', '=', id).where('type', '=', 'transaction.paid').execute().then((r) => r.length), 1);
    });

    test('the home page: paid sales today and over 30 days, pending, refunded, receivables, and every day of the chart', async () => {
      const res = await t.dash({ method: 'GET', url: '/home' });
      assert.equal(res.statusCode, 200, res.body);
      const home = res.json();
      const rows = await t.db.db.selectFrom('transactions').selectAll().where('company_id', '=', t.companyId).execute();
      const paid = rows.filter((r) => r.paid_at !== null);
      const sum = (list: typeof rows, f: (r: (typeof rows)[number]) => number) => list.reduce((s, r) => s + f(r), 0);
      assert.deepEqual(home.today, { count: paid.length, amount: sum(paid, (r) => r.amount_cents) });
      assert.deepEqual(home.last30Days, home.today);
      const pending = rows.filter((r) => r.status === 'PENDING');
      assert.deepEqual(home.pending, { count: pending.length, amount: sum(pending, (r) => r.amount_cents) });
      const refunded = rows.filter((r) => r.refunded_cents > 0);
      assert.deepEqual(home.refunded, { count: refunded.length, amount: sum(refunded, (r) => r.refunded_cents) });
      assert.deepEqual(home.chargedBack, { count: 0, amount: 0 });
      assert.equal(home.daily.length, 30);
      assert.equal(home.daily.at(-1).date, '2026-11-21');
      assert.equal(home.daily[0].date, '2026-10-23');
      assert.equal(home.daily.at(-1).amount, home.today.amount);
      assert.equal(home.daily.slice(0, -1).reduce((s: number, d: Json) => s + d.amount, 0), 0);
      const lines = await t.db.db.selectFrom('receivables').selectAll().where('company_id', '=', t.companyId).execute();
      assert.equal(home.receivables.toReceive, lines.filter((l) => l.status === 'PENDING').reduce((s, l) => s + l.amount_cents, 0));
      assert.equal(home.receivables.paid, 0);
      t.clock.advance(24 * 3_600_000);
      const tomorrow = (await t.dash({ method: 'GET', url: '/home' })).json();
      assert.deepEqual(tomorrow.today, { count: 0, amount: 0 });
      assert.equal(tomorrow.daily.at(-2).amount, home.today.amount);
    });

    test('a key: created with a name and shown once, listed without it, its last use noted, refused by /v2 once revoked', async () => {
      const created = await t.dash({ method: 'POST', url: '/api-keys', payload: { name: 'Loja virtual', scopes: ['payments:read'] } });
      assert.equal(created.statusCode, 201, created.body);
      const key = created.json();
      assert.match(key.key, /^svc_test_[0-9A-Za-z]{43}$/);
      assert.equal(key.prefix, `svc_test_…${key.key.slice(-4)}`);
      assert.deepEqual(key.scopes, ['payments:read']);
      assert.equal(key.lastUsedAt, null);
      const listed = await t.dash({ method: 'GET', url: '/api-keys' });
      assert.ok(!listed.body.includes(key.key), 'the list never has the key');
      const auth = { authorization: `Bearer ${key.key}` };
      assert.equal((await t.app.inject({ method: 'GET', url: '/v2/transactions', headers: auth })).statusCode, 200);
      const used = listed.json().data.find((k: Json) => k.id === key.id);
      assert.equal(used.name, 'Loja virtual');
      const afterUse = (await t.dash({ method: 'GET', url: '/api-keys' })).json().data.find((k: Json) => k.id === key.id);
      assert.equal(afterUse.lastUsedAt, t.clock.now().toISOString());
      assert.deepEqual((await t.auditEntries()).at(-1), { companyId: t.companyId, userId: await t.userIdOf('admin'), email: 'admin@loja.example', action: 'api_key.created', target: key.id, ip: '127.0.0.1', details: { name: 'Loja virtual' } });

      const revoked = await t.dash({ method: 'DELETE', url: `/api-keys/${key.id}` });
      assert.equal(revoked.statusCode, 200, revoked.body);
      assert.equal(revoked.json().revokedAt, t.clock.now().toISOString());
      assert.equal((await t.auditEntries()).at(-1)!.action, 'api_key.revoked');
      t.clock.advance(KEY_CACHE_MS);
      assertError(await t.app.inject({ method: 'GET', url: '/v2/transactions', headers: auth }), 401, 'UNAUTHORIZED');
      assertError(await t.dash({ method: 'DELETE', url: `/api-keys/${key.id}` }), 404, 'NOT_FOUND');
    });

    test("a webhook: its whsec_ secret is shown once, never listed; its deliveries; a test event; a delivery resent", async () => {
      const created = await t.dash({ method: 'POST', url: '/webhooks', payload: { url: 'https://hooks.example/svc', events: ['transaction.paid'] } });
      assert.equal(created.statusCode, 201, created.body);
      const hook = created.json();
      assert.match(hook.secret, /^whsec_/);
      const list = await t.dash({ method: 'GET', url: '/webhooks' });
      assert.ok(list.json().data.some((w: Json) => w.id === hook.id));
      assert.ok(!list.body.includes(hook.secret) && !list.body.includes('secret'), 'the list never shows a secret');
      assert.equal((await t.auditEntries()).at(-1)!.action, 'webhook.created');

      const before = await counts();
      const tested = await t.dash({ method: 'POST', url: `/webhooks/${hook.id}/test` });
      assert.equal(tested.statusCode, 202, tested.body);
      assert.deepEqual(tested.json().deliveries.map((d: Json) => d.webhookId), [hook.id]);
      assert.equal((await counts()).deliveries, before.deliveries + 1);
      await t.services.deliveries.runOnce();
      const deliveries = await t.dash({ method: 'GET', url: `/webhooks/${hook.id}/deliveries`, query: { limit: '10' } });
      assert.equal(deliveries.statusCode, 200, deliveries.body);
      const [delivery] = deliveries.json().data;
      assert.equal(delivery.status, 'SUCCEEDED');
      assert.equal(deliveries.json().nextCursor, null);
      const resent = await t.dash({ method: 'POST', url: `/deliveries/${delivery.id}/resend` });
      assert.equal(resent.statusCode, 202, resent.body);
      assert.equal(resent.json().eventId, delivery.eventId);
      assertError(await t.dash({ method: 'POST', url: '/deliveries/dlv_00000000000000000000000000/resend' }), 404, 'NOT_FOUND');

      const events = await t.dash({ method: 'GET', url: '/events', query: { limit: '2' } });
      assert.equal(events.statusCode, 200, events.body);
      assert.equal(events.json().data.length, 2);
      assert.equal(events.json().nextCursor, events.json().data[1].id);

      const fresh = await t.dash({ method: 'POST', url: '/webhooks', payload: { url: 'https://hooks.example/refunds', events: ['refund.failed'] } });
      assertError(await t.dash({ method: 'POST', url: `/webhooks/${fresh.json().id}/test` }), 404, 'NOT_FOUND');
      for (const id of [hook.id, fresh.json().id]) assert.equal((await t.dash({ method: 'DELETE', url: `/webhooks/${id}` })).statusCode, 204);
      assert.equal((await t.auditEntries()).at(-1)!.action, 'webhook.deleted');
      assert.equal((await t.auditEntries()).at(-1)!.target, fresh.json().id);
    });

    test('a webhook disabled after its failures shows so, and a developer enables it again: what waited is due at once', async () => {
      const hook = (await t.dash({ method: 'POST', url: '/webhooks', payload: { url: 'https://hooks.example/down', events: ['transaction.paid'] } })).json();
      // As the delivery worker leaves it after WEBHOOK_DISABLE_AFTER of failures (test/api/webhook-disabling.test.ts drives that).
      await t.db.db.updateTable('webhooks').set({ failing_since: t.clock.now(), disabled_at: t.clock.now() }).where('id', '=', hook.id).execute();
      const listed = (await t.dash({ method: 'GET', url: '/webhooks' })).json().data.find((w: Json) => w.id === hook.id);
      assert.equal(listed.status, 'disabled');
      t.as('viewer');
      assertError(await t.dash({ method: 'POST', url: `/webhooks/${hook.id}/enable` }), 403, 'FORBIDDEN');
      t.as('developer');
      const enabled = await t.dash({ method: 'POST', url: `/webhooks/${hook.id}/enable` });
      assert.equal(enabled.statusCode, 200, enabled.body);
      assert.equal(enabled.json().status, 'enabled');
      const row = await t.db.db.selectFrom('webhooks').select(['disabled_at', 'failing_since']).where('id', '=', hook.id).executeTakeFirstOrThrow();
      assert.equal(row.disabled_at, null);
      assert.deepEqual((await t.auditEntries()).at(-1), { companyId: t.companyId, userId: await t.userIdOf('developer'), email: 'developer@loja.example', action: 'webhook.enabled', target: hook.id, ip: '127.0.0.1' });
      t.as('admin');
      assert.equal((await t.dash({ method: 'DELETE', url: `/webhooks/${hook.id}` })).statusCode, 204);
    });

    test('a link: created with a QR code of its URL, listed with its payments count, canceled', async () => {
      const created = await t.dash({ method: 'POST', url: '/payment-links', payload: { amountCents: 4_990, description: 'Camiseta', paymentMethods: ['PIX', 'BOLETO'] } });
      assert.equal(created.statusCode, 201, created.body);
      const link = created.json();
      const base64 = link.qrCode.replace(/^data:image\/png;base64,/, '');
      assert.notEqual(base64, link.qrCode, 'a PNG data URL');
      const png = PNG.sync.read(Buffer.from(base64, 'base64'));
      assert.equal(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data, link.url);
      const listed = (await t.dash({ method: 'GET', url: '/payment-links' })).json();
      const { qrCode: _image, ...withoutImage } = link;
      assert.deepEqual(listed.data.find((l: Json) => l.id === link.id), withoutImage);
      assert.equal(link.paymentsCount, 0);
      assert.equal(link.status, 'ACTIVE');
      const canceled = await t.dash({ method: 'POST', url: `/payment-links/${link.id}/cancel` });
      assert.equal(canceled.statusCode, 200, canceled.body);
      assert.equal(canceled.json().status, 'CANCELED');
      assert.deepEqual((await t.auditEntries()).slice(-2).map((e) => [e.action, e.target]), [['payment_link.created', link.id], ['payment_link.canceled', link.id]]);
    });

    describe('roles and tenants', () => {
      let sale: Json;
      let link: Json;
      let key: Json;
      let hook: Json;
      let deliveryId: string;
      let foreign: { sale: string; link: string; key: string; hook: string; delivery: string };

      before(async () => {
        t.as('admin');
        sale = await paidSale({ referenceId: 'roles' });
        link = (await t.dash({ method: 'POST', url: '/payment-links', payload: { amountCents: 1_000, description: 'X', paymentMethods: ['PIX'] } })).json();
        key = (await t.dash({ method: 'POST', url: '/api-keys', payload: { name: 'k' } })).json();
        hook = (await t.dash({ method: 'POST', url: '/webhooks', payload: { url: 'https://hooks.example/roles', events: ['transaction.paid'] } })).json();
        deliveryId = (await t.dash({ method: 'POST', url: `/webhooks/${hook.id}/test` })).json().deliveries[0].id;
        // The other company's objects, made through the same services.
        const otherKey = settled(await t.services.companies.issueKey(otherCompany));
        const other = (o: Json) => t.app.inject({ ...o, headers: { authorization: `Bearer ${otherKey.key}` } } as never);
        const otherSale = (await other({ method: 'POST', url: '/v2/payment-intents', payload: { ...pixIntent(), confirm: true } })).json().transaction.id;
        await other({ method: 'POST', url: `/v2/sandbox/transactions/${otherSale}/pay` });
        const otherLink = (await other({ method: 'POST', url: '/v2/payment-links', payload: { amountCents: 1_000, description: 'Y', paymentMethods: ['PIX'] } })).json().id;
        const otherHook = (await other({ method: 'POST', url: '/v2/webhooks', payload: { url: 'https://hooks.example/other', events: ['transaction.paid'] } })).json().id;
        const otherEvent = (await t.db.db.selectFrom('events').select('id').where('transaction_id', '=', otherSale).where('type', '=', 'transaction.paid').executeTakeFirstOrThrow()).id;
        const otherDelivery = (await other({ method: 'POST', url: `/v2/events/${otherEvent}/resend`, payload: { webhookId: otherHook } })).json().deliveries[0].id;
        foreign = { sale: otherSale, link: otherLink, key: otherKey.id, hook: otherHook, delivery: otherDelivery };
      });

      /** Every route of the dashboard's data, with the permission it needs. */
      const routes = (): { method: 'GET' | 'POST' | 'DELETE'; url: string; permission: Permission; payload?: Json; headers?: Record<string, string> }[] => [
        { method: 'GET', url: '/home', permission: 'sales.read' },
        { method: 'GET', url: '/transactions', permission: 'sales.read' },
        { method: 'GET', url: '/transactions.csv', permission: 'exports' },
        { method: 'GET', url: `/transactions/${sale.id}`, permission: 'sales.read' },
        { method: 'POST', url: `/transactions/${sale.id}/refunds`, permission: 'sales.refund', payload: { amount: 100 }, headers: { 'idempotency-key': `role-${Math.random()}` } },
        { method: 'POST', url: `/transactions/${sale.id}/simulate-payment`, permission: 'sales.simulate' },
        { method: 'GET', url: '/payment-links', permission: 'links.read' },
        { method: 'POST', url: '/payment-links', permission: 'links.write', payload: { amountCents: 1_000, description: 'Z', paymentMethods: ['PIX'] } },
        { method: 'POST', url: `/payment-links/${link.id}/cancel`, permission: 'links.write' },
        { method: 'GET', url: '/receivables', permission: 'receivables.read' },
        { method: 'GET', url: '/receivables.csv', permission: 'exports' },
        { method: 'GET', url: '/api-keys', permission: 'developers.read' },
        { method: 'POST', url: '/api-keys', permission: 'developers.write', payload: { name: 'n' } },
        { method: 'DELETE', url: `/api-keys/${key.id}`, permission: 'developers.write' },
        { method: 'GET', url: '/webhooks', permission: 'developers.read' },
        { method: 'POST', url: '/webhooks', permission: 'developers.write', payload: { url: 'https://hooks.example/new', events: ['transaction.paid'] } },
        { method: 'POST', url: `/webhooks/${hook.id}/enable`, permission: 'developers.write' },
        { method: 'DELETE', url: `/webhooks/${hook.id}`, permission: 'developers.write' },
        { method: 'GET', url: `/webhooks/${hook.id}/deliveries`, permission: 'developers.read' },
        { method: 'POST', url: `/webhooks/${hook.id}/test`, permission: 'developers.write' },
        { method: 'POST', url: `/deliveries/${deliveryId}/resend`, permission: 'developers.write' },
        { method: 'GET', url: '/events', permission: 'developers.read' },
      ];

      test('each role is refused (403 FORBIDDEN) every route its permissions do not hold, and nothing is done', async () => {
        for (const role of ROLES) {
          t.as(role);
          const before = await counts();
          for (const route of routes().filter((r) => !may(role, r.permission))) {
            const res = await t.dash({ method: route.method, url: route.url, ...(route.payload ? { payload: route.payload } : {}), ...(route.headers ? { headers: route.headers } : {}) });
            assertError(res, 403, 'FORBIDDEN');
          }
          assert.deepEqual(await counts(), before, `${role}: nothing done`);
        }
        // finance: sales, links, receivables, exports, no keys or webhooks; developer: keys and webhooks, no refunds or links; viewer: reads only.
        const refused = (role: (typeof ROLES)[number]) => routes().filter((r) => !may(role, r.permission)).map((r) => `${r.method} ${r.url.replace(/[a-z]+_[0-9a-z]{26}/g, '{id}')}`);
        assert.deepEqual(refused('admin'), []);
        assert.ok(refused('finance').includes('POST /api-keys') && refused('finance').includes('GET /webhooks') && !refused('finance').includes('POST /transactions/{id}/refunds'));
        assert.ok(refused('developer').includes('POST /transactions/{id}/refunds') && refused('developer').includes('POST /payment-links') && !refused('developer').includes('POST /webhooks'));
        assert.deepEqual(refused('viewer'), routes().filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.url.replace(/[a-z]+_[0-9a-z]{26}/g, '{id}')}`));
        t.as('admin');
      });

      test('signed out, every route is 401', async () => {
        t.as(undefined);
        try {
          for (const route of routes()) assertError(await t.dash({ method: route.method, url: route.url, ...(route.payload ? { payload: route.payload } : {}) }), 401, 'UNAUTHORIZED');
        } finally {
          t.as('admin');
        }
      });

      test("another company's transaction, link, key, webhook and delivery, asked for by id, are 404 and left as they were", async () => {
        const before = await counts();
        const asks: [string, string, Json?][] = [
          ['GET', `/transactions/${foreign.sale}`],
          ['POST', `/transactions/${foreign.sale}/refunds`, { amount: 100 }],
          ['POST', `/transactions/${foreign.sale}/simulate-payment`],
          ['POST', `/payment-links/${foreign.link}/cancel`],
          ['DELETE', `/api-keys/${foreign.key}`],
          ['DELETE', `/webhooks/${foreign.hook}`],
          ['GET', `/webhooks/${foreign.hook}/deliveries`],
          ['POST', `/webhooks/${foreign.hook}/test`],
          ['POST', `/webhooks/${foreign.hook}/enable`],
          ['POST', `/deliveries/${foreign.delivery}/resend`],
        ];
        for (const [method, url, payload] of asks) {
          const res = await t.dash({ method: method as 'GET', url, headers: { 'idempotency-key': `tenant-${url}` }, ...(payload ? { payload } : {}) });
          assertError(res, 404, 'NOT_FOUND');
        }
        assert.deepEqual(await counts(), before);
        assert.ok(!(await t.dash({ method: 'GET', url: '/payment-links', query: { limit: '100' } })).body.includes(foreign.link));
        assert.ok(!(await t.dash({ method: 'GET', url: '/api-keys' })).body.includes(foreign.key));
        assert.ok(!(await t.dash({ method: 'GET', url: '/webhooks' })).body.includes(foreign.hook));
        assert.ok(!(await t.dash({ method: 'GET', url: '/events', query: { limit: '100' } })).body.includes(foreign.sale));
      });
    });
  });
}
