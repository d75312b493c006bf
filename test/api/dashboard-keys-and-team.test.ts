/**
 * Issue 35, keys and team: a key made in the dashboard holds at most what its
 * creator's role may grant (a developer's creates charges and reads, never
 * refunds nor reads receivables; above that 403 FORBIDDEN naming `scopes`,
 * nothing made); keys and webhooks keep who made them, and a member's
 * removal revokes or keeps them, audited; an invitation's token travels in
 * bodies only and its lookup does not tell whether the e-mail has a user;
 * pending invitations are listed and revoked; a sale's timeline shows a
 * webhook's URL without its query to developers.read, its origin to others.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KEY_CACHE_MS } from '../../src/http/auth.js';
import type { Sender } from '../../src/modules/webhooks/index.js';
import { RECIPIENTS } from '../helpers/app.js';
import { assertError } from '../helpers/assert.js';
import { engines } from '../helpers/db.js';
import { Browser, invite, member, PASSWORD, startDashboardApp, type DashboardTestApp } from '../helpers/dashboard.js';
import { pixIntent } from '../helpers/fixtures.js';
import { settled } from '../helpers/outcome.js';

type Json = Record<string, any>;

/** What a developer may grant a key (users/roles.ts's table, written out here). */
const DEVELOPER_SCOPES = ['webhooks:read', 'webhooks:write', 'charges:read', 'charges:write'];

const sender: Sender = { send: async () => ({ statusCode: 200 }) };

for (const engine of engines()) {
  describe(`dashboard keys and team (${engine})`, () => {
    let t: DashboardTestApp;

    before(async () => {
      t = await startDashboardApp(engine, { sender });
    });
    after(() => t.close());

    const withKey = (key: string) => ({ authorization: `Bearer ${key}` });
    async function paidSale(overrides: Json = {}): Promise<Json> {
      const res = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: { ...pixIntent(overrides), confirm: true } });
      assert.equal(res.statusCode, 201, res.body);
      const paid = await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${res.json().transaction.id}/pay` });
      assert.equal(paid.statusCode, 200, paid.body);
      return paid.json();
    }
    const keyCount = async () => Number((await t.db.db.selectFrom('api_keys').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

    test("a developer's key creates charges and reads, but cannot refund or read receivables; above the role is 403 naming scopes, nothing made", async () => {
      t.as('developer');
      const before = await keyCount();
      for (const scopes of [['payments:write'], ['refunds:write'], ['receivables:read'], ['payments:read'], ['charges:write', 'links:write']]) {
        const refused = await t.dash({ method: 'POST', url: '/api-keys', payload: { name: 'Tudo', scopes } });
        assertError(refused, 403, 'FORBIDDEN', 'scopes');
        assert.match(refused.json().details[0].message, new RegExp(scopes.filter((s) => !DEVELOPER_SCOPES.includes(s)).join(', ')));
      }
      assert.equal(await keyCount(), before, 'nothing made');

      // No scopes listed: every scope the role may grant, not every scope.
      const made = await t.dash({ method: 'POST', url: '/api-keys', payload: { name: 'Integração' } });
      assert.equal(made.statusCode, 201, made.body);
      assert.deepEqual(made.json().scopes, DEVELOPER_SCOPES);
      const key = made.json().key as string;
      const sale = await paidSale();
      const charge = await t.app.inject({ method: 'POST', url: '/v2/payment-intents', headers: withKey(key), payload: pixIntent() });
      assert.equal(charge.statusCode, 201, charge.body);
      assert.equal((await t.app.inject({ method: 'GET', url: `/v2/transactions/${sale.id}`, headers: withKey(key) })).statusCode, 200);
      assert.equal((await t.app.inject({ method: 'GET', url: `/v2/transactions/${sale.id}/refunds`, headers: withKey(key) })).statusCode, 200);
      const refund = await t.app.inject({ method: 'POST', url: `/v2/transactions/${sale.id}/refunds`, headers: { ...withKey(key), 'idempotency-key': 'dev-refund' }, payload: { amountCents: 100 } });
      assertError(refund, 403, 'FORBIDDEN');
      assert.match(refund.json().message, /refunds:write/);
      assertError(await t.app.inject({ method: 'GET', url: '/v2/receivables', headers: withKey(key) }), 403, 'FORBIDDEN');
      assertError(await t.app.inject({ method: 'POST', url: '/v2/payment-links', headers: withKey(key), payload: { description: 'x', amountCents: 1_000, paymentMethods: ['PIX'] } }), 403, 'FORBIDDEN');
      assertError(await t.app.inject({ method: 'POST', url: `/v2/sandbox/transactions/${sale.id}/pay`, headers: withKey(key) }), 403, 'FORBIDDEN');
      const refunds = await t.db.db.selectFrom('refunds').select('id').where('transaction_id', '=', sale.id).execute();
      assert.deepEqual(refunds, []);

      // An admin may grant any scope; payments:write still holds refunds (the contract's scopes keep their meaning).
      t.as('admin');
      const admin = await t.dash({ method: 'POST', url: '/api-keys', payload: { name: 'Reembolsos', scopes: ['payments:write'] } });
      assert.equal(admin.statusCode, 201, admin.body);
      const adminRefund = await t.app.inject({ method: 'POST', url: `/v2/transactions/${sale.id}/refunds`, headers: { ...withKey(admin.json().key), 'idempotency-key': 'admin-refund' }, payload: { amountCents: 100 } });
      assert.equal(adminRefund.statusCode, 201, adminRefund.body);
      const all = await t.dash({ method: 'POST', url: '/api-keys', payload: { name: 'Tudo' } });
      assert.equal(all.json().scopes, null);
    });

    test('keys and webhooks say who made them; the operator’s and the API’s say no one', async () => {
      t.as('developer');
      const devId = await t.userIdOf('developer');
      const key = (await t.dash({ method: 'POST', url: '/api-keys', payload: { name: 'Do dev', scopes: ['charges:read'] } })).json();
      assert.deepEqual(key.createdBy, { userId: devId, name: 'developer', email: 'developer@loja.example' });
      const hook = await t.dash({ method: 'POST', url: '/webhooks', payload: { url: 'https://hooks.example/dev', events: ['transaction.paid'] } });
      assert.equal(hook.statusCode, 201, hook.body);
      const operatorKey = settled(await t.services.companies.issueKey(t.companyId, ['payments:read']));
      const apiHook = await t.call({ method: 'POST', url: '/v2/webhooks', payload: { url: 'https://hooks.example/api', events: ['transaction.paid'] } });
      assert.equal(apiHook.statusCode, 201, apiHook.body);
      assert.equal(apiHook.json().createdBy, undefined, "the API's answer is unchanged");

      const keys = (await t.dash({ method: 'GET', url: '/api-keys' })).json().data as Json[];
      assert.deepEqual(keys.find((k) => k.id === key.id)!.createdBy, { userId: devId, name: 'developer', email: 'developer@loja.example' });
      assert.equal(keys.find((k) => k.id === operatorKey.id)!.createdBy, null);
      const hooks = (await t.dash({ method: 'GET', url: '/webhooks' })).json().data as Json[];
      assert.deepEqual(hooks.find((w) => w.id === hook.json().id)!.createdBy, { userId: devId, name: 'developer', email: 'developer@loja.example' });
      assert.equal(hooks.find((w) => w.id === apiHook.json().id)!.createdBy, null);
      const rows = await t.db.db.selectFrom('api_keys').select(['id', 'created_by']).where('id', 'in', [key.id, operatorKey.id]).execute();
      assert.deepEqual(Object.fromEntries(rows.map((r) => [r.id, r.created_by])), { [key.id]: devId, [operatorKey.id]: null });
      await t.dash({ method: 'DELETE', url: `/webhooks/${hook.json().id}` });
      await t.call({ method: 'DELETE', url: `/v2/webhooks/${apiHook.json().id}` });
    });

    test("a member's removal lists their keys and webhooks, and revokes them (audited) or keeps them, saying which", async () => {
      t.as('admin');
      const admin = await t.userIdOf('admin');
      const removeAndSay = async (email: string, credentials: 'revoke' | 'keep') => {
        const dev = await member(t, email, 'developer');
        const devId = (await dev.me()).user.id;
        const keys = [];
        for (const name of ['Loja', 'ERP']) {
          const made = await dev.send('POST', '/api-keys', { name, scopes: ['charges:read'] });
          assert.equal(made.statusCode, 201, made.body);
          keys.push(made.json());
        }
        const hook = (await dev.send('POST', '/webhooks', { url: `https://hooks.example/${credentials}?token=s3cr3t`, events: ['transaction.paid'] })).json();
        const adminKey = (await t.dash({ method: 'POST', url: '/api-keys', payload: { name: 'Do admin', scopes: ['charges:read'] } })).json();

        const listed = await t.dash({ method: 'GET', url: `/team/members/${devId}/credentials` });
        assert.equal(listed.statusCode, 200, listed.body);
        assert.deepEqual(listed.json(), {
          keys: keys.map((k) => ({ id: k.id, name: k.name, prefix: k.prefix })),
          webhooks: [{ id: hook.id, url: `https://hooks.example/${credentials}` }],
        });
        t.as('developer');
        assertError(await t.dash({ method: 'GET', url: `/team/members/${devId}/credentials` }), 403, 'FORBIDDEN');
        t.as('admin');

        const removed = await t.dash({ method: 'DELETE', url: `/team/members/${devId}`, payload: { credentials } });
        assert.equal(removed.statusCode, 200, removed.body);
        assert.deepEqual(removed.json(), { userId: devId, credentials: credentials === 'revoke' ? 'revoked' : 'kept', ...listed.json() });
        return { devId, keys, hook, adminKey };
      };

      const revoked = await removeAndSay('sai@loja.example', 'revoke');
      t.clock.advance(KEY_CACHE_MS);
      for (const key of revoked.keys) assertError(await t.app.inject({ method: 'GET', url: '/v2/transactions', headers: withKey(key.key) }), 401, 'UNAUTHORIZED');
      assert.equal((await t.app.inject({ method: 'GET', url: '/v2/transactions', headers: withKey(revoked.adminKey.key) })).statusCode, 200, "another member's key stays");
      const hookRow = await t.db.db.selectFrom('webhooks').select(['active', 'deleted_at']).where('id', '=', revoked.hook.id).executeTakeFirstOrThrow();
      assert.equal(hookRow.active, false);
      const audit = (await t.auditEntries()).filter((e) => ['api_key.revoked', 'webhook.deleted', 'member.removed'].includes(e.action) && (e.target === revoked.devId || e.details?.member === revoked.devId));
      assert.deepEqual(
        audit.map((e) => [e.action, e.target, e.userId, e.details]),
        [
          ['member.removed', revoked.devId, admin, { role: 'developer', credentials: 'revoked', keys: 2, webhooks: 1 }],
          ['api_key.revoked', revoked.keys[0].id, admin, { member: revoked.devId }],
          ['api_key.revoked', revoked.keys[1].id, admin, { member: revoked.devId }],
          ['webhook.deleted', revoked.hook.id, admin, { member: revoked.devId }],
        ],
      );

      const kept = await removeAndSay('fica@loja.example', 'keep');
      t.clock.advance(KEY_CACHE_MS);
      for (const key of kept.keys) assert.equal((await t.app.inject({ method: 'GET', url: '/v2/transactions', headers: withKey(key.key) })).statusCode, 200);
      assert.equal((await t.db.db.selectFrom('webhooks').select('active').where('id', '=', kept.hook.id).executeTakeFirstOrThrow()).active, true);
      const keptAudit = (await t.auditEntries()).filter((e) => e.details?.member === kept.devId);
      assert.deepEqual(keptAudit, [], 'nothing revoked');
      // The keys still say who made them, though that person left.
      const listedKeys = (await t.dash({ method: 'GET', url: '/api-keys' })).json().data as Json[];
      assert.equal(listedKeys.find((k) => k.id === kept.keys[0].id)!.createdBy.email, 'fica@loja.example');

      // Without a choice the removal keeps them (the operator's CLI), and says so.
      const quiet = await member(t, 'quieto@loja.example', 'viewer');
      const quietId = (await quiet.me()).user.id;
      const res = await t.dash({ method: 'DELETE', url: `/team/members/${quietId}` });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { userId: quietId, credentials: 'kept', keys: [], webhooks: [] });
      assertError(await t.dash({ method: 'DELETE', url: `/team/members/${quietId}`, payload: { credentials: 'burn' } }), 400, 'VALIDATION_ERROR', 'credentials');
    });

    test("an invitation's token travels in the body; the lookup does not tell whether the e-mail has a user", async () => {
      const other = settled(await t.services.companies.createCompany('Outra Loja Ltda', RECIPIENTS[0]!));
      await member(t, 'bia@loja.example', 'viewer', other.id);
      const token = await invite(t, 'bia@loja.example', 'developer');
      const fresh = await invite(t, 'novo@loja.example', 'developer');
      const browser = new Browser(t);
      // The old routes with the token in the path are gone.
      assertError(await browser.send('GET', `/invitations/${token}`), 404, 'NOT_FOUND');
      assertError(await browser.send('POST', `/invitations/${token}`, { password: PASSWORD }), 404, 'NOT_FOUND');
      const known = await browser.send('POST', '/invitations/lookup', { token });
      const unknown = await browser.send('POST', '/invitations/lookup', { token: fresh });
      assert.deepEqual(known.json(), { email: 'bia@loja.example', companyName: 'Loja Teste Ltda', role: 'developer' });
      assert.deepEqual(Object.keys(unknown.json()), Object.keys(known.json()));
      assertError(await browser.send('POST', '/invitations/lookup', {}), 400, 'VALIDATION_ERROR', 'token');
      // The existing user confirms with their password only.
      const accepted = await browser.send('POST', '/invitations/accept', { token, password: PASSWORD });
      assert.equal(accepted.statusCode, 200, accepted.body);
      assert.equal(accepted.json().role, 'developer');
    });

    test('pending invitations: listed with e-mail, role and expiry (never the token), revoked (audited), and then refused', async () => {
      t.as('admin');
      const made = await t.dash({ method: 'POST', url: '/team/invitations', payload: { email: 'Pendente@loja.example', role: 'finance' } });
      assert.equal(made.statusCode, 201, made.body);
      assert.equal(made.json().existingUser, undefined);
      const token = new URL(made.json().url).hash.slice(1);
      const used = await invite(t, 'usado@loja.example', 'viewer');
      assert.equal((await new Browser(t).send('POST', '/invitations/accept', { token: used, name: 'Usado', password: PASSWORD, passwordConfirmation: PASSWORD })).statusCode, 200);

      const list = await t.dash({ method: 'GET', url: '/team/invitations' });
      assert.equal(list.statusCode, 200, list.body);
      const pending = (list.json().data as Json[]).find((i) => i.email === 'pendente@loja.example')!;
      assert.deepEqual(pending, { id: made.json().id, email: 'pendente@loja.example', role: 'finance', createdAt: t.clock.now().toISOString(), expiresAt: made.json().expiresAt });
      assert.match(pending.id, /^inv_[0-9a-z]{26}$/);
      assert.ok(!(list.json().data as Json[]).some((i) => i.email === 'usado@loja.example'), 'a used invitation is not pending');
      assert.ok(!list.body.includes(token), 'the list never holds a token');
      for (const role of ['finance', 'developer', 'viewer'] as const) {
        t.as(role);
        assertError(await t.dash({ method: 'GET', url: '/team/invitations' }), 403, 'FORBIDDEN');
        assertError(await t.dash({ method: 'DELETE', url: `/team/invitations/${pending.id}` }), 403, 'FORBIDDEN');
      }
      t.as('admin');
      const revoked = await t.dash({ method: 'DELETE', url: `/team/invitations/${pending.id}` });
      assert.equal(revoked.statusCode, 200, revoked.body);
      const audit = await t.db.db.selectFrom('audit_log').selectAll().where('action', '=', 'invitation.revoked').execute();
      assert.deepEqual(
        audit.map((a) => [a.target, a.user_id, a.details]),
        [[pending.id, await t.userIdOf('admin'), { email: 'pendente@loja.example', role: 'finance' }]],
      );
      assertError(await new Browser(t).send('POST', '/invitations/lookup', { token }), 404, 'NOT_FOUND');
      assertError(await new Browser(t).send('POST', '/invitations/accept', { token, name: 'P', password: PASSWORD, passwordConfirmation: PASSWORD }), 404, 'NOT_FOUND');
      assertError(await t.dash({ method: 'DELETE', url: `/team/invitations/${pending.id}` }), 404, 'NOT_FOUND');
      assert.ok(!(await t.dash({ method: 'GET', url: '/team/invitations' })).body.includes(pending.id));
    });

    test("a sale's timeline: a webhook's URL without its query to developers.read, its origin only to the others", async () => {
      t.as('admin');
      const hook = await t.dash({ method: 'POST', url: '/webhooks', payload: { url: 'https://hooks.example/in/svc?secret=s3cr3t-value', events: ['transaction.paid'] } });
      assert.equal(hook.statusCode, 201, hook.body);
      const sale = await paidSale({ referenceId: 'timeline-url' });
      await t.services.deliveries.runOnce();
      const urls = async (role: 'admin' | 'finance' | 'developer' | 'viewer') => {
        t.as(role);
        const res = await t.dash({ method: 'GET', url: `/transactions/${sale.id}` });
        assert.equal(res.statusCode, 200, res.body);
        assert.ok(!res.body.includes('s3cr3t'), `${role} never gets the query`);
        return (res.json().timeline as Json[]).flatMap((e) => e.deliveries.filter((d: Json) => d.webhookId === hook.json().id).map((d: Json) => d.url));
      };
      assert.deepEqual(await urls('finance'), ['https://hooks.example']);
      assert.deepEqual(await urls('developer'), ['https://hooks.example/in/svc']);
      assert.deepEqual(await urls('viewer'), ['https://hooks.example/in/svc']);
      assert.deepEqual(await urls('admin'), ['https://hooks.example/in/svc']);
      // The webhooks list: whole to who may change them, without the query to a reader.
      t.as('viewer');
      const read = (await t.dash({ method: 'GET', url: '/webhooks' })).json().data.find((w: Json) => w.id === hook.json().id);
      assert.equal(read.url, 'https://hooks.example/in/svc');
      t.as('developer');
      const written = (await t.dash({ method: 'GET', url: '/webhooks' })).json().data.find((w: Json) => w.id === hook.json().id);
      assert.equal(written.url, 'https://hooks.example/in/svc?secret=s3cr3t-value');
      t.as('admin');
      await t.dash({ method: 'DELETE', url: `/webhooks/${hook.json().id}` });
    });
  });
}
