/**
 * Idempotency-Key over HTTP: byte-identical replay, reuse with another body or
 * route, canonical JSON, requests that did not act are not stored, the lease
 * of a running request, stored PROVIDER_ERROR and 24-hour retention. The
 * recovery of a confirmation whose process died between its phases is in
 * test/service/confirmation.test.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_RETENTION_MS, requestFingerprint } from '../../src/modules/idempotency/index.js';
import { SimulatedProvider } from '../../src/modules/providers/index.js';
import { DyingProvider } from '../helpers/provider.js';
import { RECIPIENTS, startTestApp, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/db.js';
import { settled } from '../helpers/outcome.js';
import { assertError } from '../helpers/assert.js';
import { pixIntent } from '../helpers/fixtures.js';

function assertReplayOf(replay: LightMyRequestResponse, first: LightMyRequestResponse): void {
  assert.equal(replay.statusCode, first.statusCode);
  assert.equal(replay.body, first.body, 'byte-identical body');
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.equal(first.headers['idempotent-replayed'], undefined, 'the first response is not marked replayed');
}

for (const engine of engines()) {
  describe(`idempotency (${engine})`, () => {
    let t: TestApp;
    let acquirer: DyingProvider;

    before(async () => {
      t = await startTestApp(engine, { provider: (base) => (acquirer = new DyingProvider(new SimulatedProvider(base.db, base.clock))) });
    });
    after(() => t.close());

    const create = (key: string | undefined, payload: object | string) =>
      t.call({
        method: 'POST',
        url: '/v2/payment-intents',
        headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
        payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      });
    const confirm = (id: string, key?: string) =>
      t.call({ method: 'POST', url: `/v2/payment-intents/${id}/confirm`, headers: key === undefined ? {} : { 'idempotency-key': key } });
    const intentsWithReference = async (referenceId: string) =>
      t.db.db.selectFrom('payment_intents').selectAll().where('company_id', '=', t.companyId).where('reference_id', '=', referenceId).execute();
    const keyRow = (key: string) => t.db.db.selectFrom('idempotency_keys').selectAll().where('key', '=', key).executeTakeFirst();
    const newIntent = async (referenceId: string, amountCents = 10_000) => {
      const res = await create(undefined, pixIntent({ referenceId, amountCents }));
      assert.equal(res.statusCode, 201, res.body);
      return res.json<{ id: string }>().id;
    };

    test('same key and body: the first response is replayed byte for byte, one intent exists', async () => {
      const body = pixIntent({ referenceId: 'idem-same' });
      const first = await create('k-same', body);
      assert.equal(first.statusCode, 201, first.body);
      const second = await create('k-same', body);
      assertReplayOf(second, first);
      assert.equal(second.headers['content-type'], first.headers['content-type']);
      assert.equal((await intentsWithReference('idem-same')).length, 1);
      assert.equal((await keyRow('k-same'))?.state, 'DONE');
    });

    test('keys are scoped by company: another company reusing a key gets its own response, never the first one', async () => {
      const body = pixIntent({ referenceId: 'idem-tenant' });
      const mine = await create('k-tenant', body);
      assert.equal(mine.statusCode, 201);
      const other = settled(await t.services.companies.createCompany('Outra Loja', RECIPIENTS[0]!));
      const { key } = settled(await t.services.companies.issueKey(other.id));
      const post = (payload: object) =>
        t.app.inject({ method: 'POST', url: '/v2/payment-intents', headers: { authorization: `Bearer ${key}`, 'idempotency-key': 'k-tenant' }, payload });
      const theirs = await post(body);
      assert.equal(theirs.statusCode, 201, theirs.body);
      assert.equal(theirs.headers['idempotent-replayed'], undefined);
      assert.notEqual(theirs.json<{ id: string }>().id, mine.json<{ id: string }>().id);
      assert.equal((await post(pixIntent({ referenceId: 'idem-tenant-2' }))).statusCode, 422, 'their key now guards their own request');
      assertReplayOf(await create('k-tenant', body), mine);
    });

    test('same key with another body is 422 IDEMPOTENCY_KEY_REUSED; on another route too', async () => {
      const first = await create('k-reuse', pixIntent({ referenceId: 'idem-reuse' }));
      assert.equal(first.statusCode, 201);
      assertError(await create('k-reuse', pixIntent({ referenceId: 'idem-reuse', amountCents: 10_001 })), 422, 'IDEMPOTENCY_KEY_REUSED', 'Idempotency-Key', { exactly: true });
      const id = first.json<{ id: string }>().id;
      assertError(await t.call({ method: 'POST', url: `/v2/payment-intents/${id}/cancel`, headers: { 'idempotency-key': 'k-reuse' } }), 422, 'IDEMPOTENCY_KEY_REUSED', 'Idempotency-Key', { exactly: true });
      assertError(await confirm(id, 'k-reuse'), 422, 'IDEMPOTENCY_KEY_REUSED', 'Idempotency-Key', { exactly: true });
      assert.equal((await intentsWithReference('idem-reuse')).length, 1);
      const intent = await t.call({ method: 'GET', url: `/v2/payment-intents/${id}` });
      assert.equal(intent.json<{ status: string }>().status, 'REQUIRES_CONFIRMATION', 'the refused cancel and confirm did nothing');
    });

    test('the same body with keys in another order and other whitespace is a replay (canonical JSON)', async () => {
      const first = await create('k-canon', pixIntent({ referenceId: 'idem-canon', metadata: { a: '1', b: '2' } }));
      assert.equal(first.statusCode, 201);
      const reordered = `{ "buyer": {"email":"maria@example.com", "document":"52998224725", "address": {"zipCode":"01304000","state":"SP","city":"São Paulo","neighborhood":"Consolação","number":"100","street":"Rua Augusta"}, "name":"Maria da Silva"},
        "metadata": {"b":"2","a":"1"},   "referenceId":"idem-canon", "paymentMethod":"PIX", "amountCents":10000 }`;
      assertReplayOf(await create('k-canon', reordered), first);
      assert.equal((await intentsWithReference('idem-canon')).length, 1);
    });

    test('a request rejected before acting is not stored: a corrected retry with the same key succeeds', async () => {
      // Refused by the schema.
      assertError(await create('k-fix', pixIntent({ referenceId: 'idem-fix', amountCents: 'ten' })), 400, 'VALIDATION_ERROR');
      assert.equal(await keyRow('k-fix'), undefined);
      // Refused by the service's rules, after the key was claimed (CPF check digits).
      const badBuyer = pixIntent({ referenceId: 'idem-fix', buyer: { name: 'Maria', document: '52998224724' } });
      assertError(await create('k-fix', badBuyer), 400, 'VALIDATION_ERROR');
      assert.equal(await keyRow('k-fix'), undefined);
      // Refused as unknown: a 404 confirm does not keep its key either.
      assertError(await confirm('pi_00000000000000000000000000', 'k-fix'), 404, 'NOT_FOUND');
      assert.equal(await keyRow('k-fix'), undefined);
      const fixed = await create('k-fix', pixIntent({ referenceId: 'idem-fix' }));
      assert.equal(fixed.statusCode, 201, fixed.body);
      assert.equal(fixed.headers['idempotent-replayed'], undefined);
      assert.equal((await intentsWithReference('idem-fix')).length, 1);
    });

    test('confirm needs Idempotency-Key; a key must be 1 to 255 characters', async () => {
      const id = await newIntent('idem-len');
      assertError(await confirm(id), 400, 'VALIDATION_ERROR', 'Idempotency-Key', { exactly: true });
      assertError(await confirm(id, 'k'.repeat(256)), 400, 'VALIDATION_ERROR', 'Idempotency-Key', { exactly: true });
      assertError(await confirm(id, ''), 400, 'VALIDATION_ERROR', 'Idempotency-Key', { exactly: true });
      assertError(await create('k'.repeat(256), pixIntent({ referenceId: 'idem-len' })), 400, 'VALIDATION_ERROR', 'Idempotency-Key', { exactly: true });
      assert.equal((await t.db.db.selectFrom('transactions').selectAll().where('payment_intent_id', '=', id).execute()).length, 0);
      const ok = await confirm(id, 'k'.repeat(255));
      assert.equal(ok.statusCode, 201, ok.body);
    });

    test('a STARTED key within its lease is 409 IDEMPOTENCY_KEY_IN_USE; past the lease a retry takes over', async () => {
      const body = pixIntent({ referenceId: 'idem-lease' });
      // A create that claimed its key and died before acting: the key's STARTED row, as the Idempotency-Key hook writes it.
      const claim = settled(await t.services.idempotency.claim(t.companyId, 'k-lease', requestFingerprint('POST', '/v2/payment-intents', {}, body), 201));
      assert.equal(claim.kind, 'new');
      assertError(await create('k-lease', body), 409, 'IDEMPOTENCY_KEY_IN_USE');
      t.clock.advance(IDEMPOTENCY_LEASE_MS - 1);
      assertError(await create('k-lease', body), 409, 'IDEMPOTENCY_KEY_IN_USE');
      assert.equal((await intentsWithReference('idem-lease')).length, 0);
      assertError(await create('k-lease', pixIntent({ referenceId: 'other' })), 422, 'IDEMPOTENCY_KEY_REUSED');

      t.clock.advance(2);
      const taken = await create('k-lease', body);
      assert.equal(taken.statusCode, 201, taken.body);
      assert.equal(taken.headers['idempotent-replayed'], undefined);
      assertReplayOf(await create('k-lease', body), taken);
      assert.equal((await intentsWithReference('idem-lease')).length, 1);
    });

    test('PROVIDER_ERROR is stored and replayed as the same 502, without calling the acquirer again', async () => {
      const body = pixIntent({ referenceId: 'idem-502', amountCents: 50_200, confirm: true });
      const calls = acquirer.calls;
      const first = await create('k-502', body);
      assertError(first, 502, 'PROVIDER_ERROR');
      assert.equal(acquirer.calls, calls + 1);
      const replay = await create('k-502', body);
      assertReplayOf(replay, first);
      assert.equal(acquirer.calls, calls + 1, 'no second acquirer call');
      const intents = await intentsWithReference('idem-502');
      assert.equal(intents.length, 1);
      assert.equal(intents[0]!.status, 'FAILED');
      assert.equal((await t.db.db.selectFrom('transactions').selectAll().where('payment_intent_id', '=', intents[0]!.id).execute()).length, 0);
    });

    test('a confirm replayed with its key returns the same transaction: one transaction, one transaction.created', async () => {
      const id = await newIntent('idem-confirm');
      const calls = acquirer.calls;
      const first = await confirm(id, 'k-confirm');
      assert.equal(first.statusCode, 201, first.body);
      const trx = first.json<{ id: string; status: string; paymentIntentId: string }>();
      assert.equal(trx.status, 'PENDING');
      assert.equal(trx.paymentIntentId, id);
      assertReplayOf(await confirm(id, 'k-confirm'), first);
      assertReplayOf(await confirm(id, 'k-confirm'), first);
      assert.equal(acquirer.calls, calls + 1, 'charged once');
      assert.equal((await t.db.db.selectFrom('transactions').selectAll().where('payment_intent_id', '=', id).execute()).length, 1);
      const events = await t.db.db.selectFrom('events').selectAll().where('transaction_id', '=', trx.id).execute();
      assert.deepEqual(events.map((e) => e.type), ['transaction.created']);
      assertError(await confirm(id, 'k-confirm-other'), 409, 'INTENT_ALREADY_PROCESSED');
    });

    test('no body and {} are the same request: a confirm retried with {} (or the reverse) is replayed, not refused', async () => {
      const withBody = (id: string, key: string, payload: string) =>
        t.call({ method: 'POST', url: `/v2/payment-intents/${id}/confirm`, headers: { 'idempotency-key': key, 'content-type': 'application/json' }, payload });
      const a = await newIntent('idem-empty-a');
      const first = await confirm(a, 'k-empty-a');
      assert.equal(first.statusCode, 201, first.body);
      assertReplayOf(await withBody(a, 'k-empty-a', '{}'), first);
      assertReplayOf(await withBody(a, 'k-empty-a', ' { } '), first);
      const b = await newIntent('idem-empty-b');
      const second = await withBody(b, 'k-empty-b', '{}');
      assert.equal(second.statusCode, 201, second.body);
      assertReplayOf(await confirm(b, 'k-empty-b'), second);
      // A body that says something is still another request.
      assertError(await withBody(b, 'k-empty-b', '{"token":"vtk_x"}'), 422, 'IDEMPOTENCY_KEY_REUSED');
    });

    test('keys older than 24 hours are purged; younger ones are kept', async () => {
      const a = await create('k-old', pixIntent({ referenceId: 'idem-old' }));
      assert.equal(a.statusCode, 201);
      t.clock.advance(IDEMPOTENCY_RETENTION_MS / 2);
      assert.equal((await create('k-young', pixIntent({ referenceId: 'idem-young' }))).statusCode, 201);
      t.clock.advance(IDEMPOTENCY_RETENTION_MS / 2 + 1);
      const purged = await t.services.idempotency.purge();
      assert.ok(purged >= 1);
      assert.equal(await keyRow('k-old'), undefined);
      assert.equal((await keyRow('k-young'))?.state, 'DONE');
      // The purged key is free again; the kept one still guards its request.
      const reused = await create('k-old', pixIntent({ referenceId: 'idem-old-2' }));
      assert.equal(reused.statusCode, 201, reused.body);
      assertError(await create('k-young', pixIntent({ referenceId: 'idem-young-2' })), 422, 'IDEMPOTENCY_KEY_REUSED');
      assert.equal(await t.services.idempotency.purge(), 0);
    });
  });
}
