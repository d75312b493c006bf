/**
 * The production create-and-confirm (`confirm: true`, a Pix connector that
 * calls a PSP: bcb-api-pix against the local PSP) in exactly two commits
 * (payment-intents confirmAroundCall): the key STARTED, the claimed intent
 * and the txid before the call, the outcome and the key DONE after it. A
 * failure of the first statement leaves nothing; a silent PSP leaves the
 * intent FAILED with PROVIDER_ERROR stored; a twin during the call gets 409
 * and sends no second cob; a crash between the commits is resumed by a retry
 * or finished by the worker with the same txid and one cob; an outcome the
 * worker recorded first is never overwritten.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { BcbPixProvider } from '../../src/modules/providers/bcb-pix/index.js';
import { txidOf } from '../../src/modules/providers/bcb-pix/mapping.js';
import type { ChargeRequest, PreparedCharge } from '../../src/modules/providers/provider.js';
import { insertRowFragment } from '../../src/db/one-statement.js';
import { IDEMPOTENCY_LEASE_MS } from '../../src/modules/idempotency/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/db.js';
import { assertError } from '../helpers/assert.js';
import { BUYER, pixIntent } from '../helpers/fixtures.js';
import { createTestCa, type TestCa } from '../helpers/test-ca.js';
import { startLocalPsp, type LocalPsp } from '../providers/local-psp.js';

const PUBLIC_API_URL = 'https://pay.example.test';
const CLIENT = { clientId: 'svc-client', clientSecret: 'production-path-secret-42', pixKey: 'pagamentos@example.com' };

/** The connector, with a hook around the call of a prepared charge (a test pauses it, or makes the process "die" there). */
class HookedPix extends BcbPixProvider {
  around: ((send: () => Promise<never>) => Promise<never>) | undefined;
  breakInsert = false;

  override prepare(request: ChargeRequest): PreparedCharge {
    const prepared = super.prepare(request);
    const around = this.around;
    this.around = undefined;
    const insert: PreparedCharge['insert'] = this.breakInsert
      ? // A NULL key: the statement fails on provider_charges, after the key and the intent parts.
        insertRowFragment('provider_charges', { reference: request.reference, provider: 'x', method: 'PIX', provider_key: null as unknown as string, amount_cents: 1, created_at: new Date() })
      : prepared.insert;
    return { insert, send: around ? () => around(prepared.send as () => Promise<never>) : prepared.send };
  }
}

interface Intent {
  id: string;
  status: string;
  referenceId: string;
  transactionId: string | null;
  transaction?: { id: string; paymentDetails: { pix: { qrCode: string } } };
}

for (const engine of engines()) {
  describe(`production create-and-confirm in two commits (${engine})`, () => {
    let ca: TestCa;
    let psp: LocalPsp;
    let t: TestApp;
    let pix: HookedPix;

    before(async () => {
      ca = createTestCa();
      psp = await startLocalPsp({ ca, ...CLIENT });
      t = await startTestApp(engine, {
        env: { PUBLIC_API_URL },
        provider: (base) =>
          (pix = new HookedPix(
            { apiUrl: psp.apiUrl, oauthUrl: psp.oauthUrl, ...CLIENT, certFile: ca.client.certFile, keyFile: ca.client.keyFile, caFile: undefined, webhookUrl: undefined },
            { db: base.db, clock: base.clock, extraCa: ca.ca },
            { timeoutMs: 2000 },
          )),
      });
    });
    after(async () => {
      await t?.close();
      await pix?.close();
      await psp?.close();
      ca?.remove();
    });

    let orders = 0;
    const newPayload = () => pixIntent({ confirm: true, referenceId: `prod-order-${++orders}` });
    const create = (key: string, payload: object) => t.call({ method: 'POST', url: '/v2/payment-intents', headers: { 'idempotency-key': key }, payload });
    const cobPuts = (txid: string) => psp.requests.filter((r) => r.method === 'PUT' && r.path === `/cob/${txid}`).length;
    const keyRow = (key: string) => t.db.db.selectFrom('idempotency_keys').selectAll().where('company_id', '=', t.companyId).where('key', '=', key).executeTakeFirst();
    const rowsOf = async (referenceId: string) => {
      const intents = await t.db.db.selectFrom('payment_intents').selectAll().where('company_id', '=', t.companyId).where('reference_id', '=', referenceId).execute();
      const ids = intents.map((i) => i.id);
      const none = { intents, transactions: [], charges: [], events: [] };
      if (ids.length === 0) return none;
      const transactions = await t.db.db.selectFrom('transactions').selectAll().where('payment_intent_id', 'in', ids).execute();
      const charges = await t.db.db.selectFrom('provider_charges').selectAll().where('reference', 'in', ids).execute();
      const events = transactions.length ? await t.db.db.selectFrom('events').selectAll().where('transaction_id', 'in', transactions.map((x) => x.id)).execute() : [];
      return { intents, transactions, charges, events };
    };
    /** Holds the next PSP call until `release()`; `atCall` resolves when it is reached. */
    const pauseTheNextCall = () => {
      let reached!: () => void;
      const atCall = new Promise<void>((r) => (reached = r));
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      pix.around = async (send) => {
        reached();
        await released;
        return send();
      };
      return { atCall, release };
    };
    const replayOf = async (key: string, payload: object, first: LightMyRequestResponse) => {
      const replay = await create(key, payload);
      assert.equal(replay.statusCode, first.statusCode);
      assert.equal(replay.body, first.body, 'byte-identical body');
      assert.equal(replay.headers['idempotent-replayed'], 'true');
    };

    test('confirmed with the PSP’s cob: the response is what GET shows, the key DONE with it, replayed byte for byte', async () => {
      const payload = newPayload();
      const res = await create('prod-ok', payload);
      assert.equal(res.statusCode, 201, res.body);
      const intent = res.json<Intent>();
      assert.equal(intent.status, 'CONFIRMED');
      const rows = await rowsOf(intent.referenceId);
      const txid = txidOf(rows.intents[0]!.reserved_transaction_id!);
      assert.equal(intent.transaction!.paymentDetails.pix.qrCode, psp.cobs.get(txid)!.pixCopiaECola);
      assert.deepEqual([rows.transactions.length, rows.events.length, rows.charges.length, cobPuts(txid)], [1, 1, 1, 1]);
      assert.equal(rows.charges[0]!.provider_key, txid);
      assert.deepEqual([rows.transactions[0]!.version, JSON.parse(rows.events[0]!.body).data.transaction.version], [1, 1], 'created: version 1 in the row and the event');
      const { transaction, ...withoutTransaction } = intent;
      assert.deepEqual(withoutTransaction, (await t.call({ method: 'GET', url: `/v2/payment-intents/${intent.id}` })).json());
      assert.deepEqual(transaction, (await t.call({ method: 'GET', url: `/v2/transactions/${intent.transactionId}` })).json());
      assert.equal((await keyRow('prod-ok'))!.state, 'DONE');
      await replayOf('prod-ok', payload, res);
    });

    test('a first statement that fails leaves nothing: no key, no intent, no cob; the key is free for a retry', async () => {
      const payload = newPayload();
      const puts = psp.requests.length;
      pix.breakInsert = true;
      const failed = await create('prod-broken', payload);
      pix.breakInsert = false;
      assert.equal(failed.statusCode, 500);
      assert.equal(await keyRow('prod-broken'), undefined);
      assert.equal((await rowsOf(payload.referenceId)).intents.length, 0);
      assert.equal(psp.requests.length, puts, 'the PSP was not called');
      const retried = await create('prod-broken', payload);
      assert.equal(retried.statusCode, 201, retried.body);
    });

    test('a silent PSP: the intent FAILED, PROVIDER_ERROR stored under the key and replayed', async () => {
      const payload = newPayload();
      psp.failing('status503');
      let res: LightMyRequestResponse;
      try {
        res = await create('prod-silent', payload);
      } finally {
        psp.failing('off');
      }
      assertError(res, 502, 'PROVIDER_ERROR');
      const rows = await rowsOf(payload.referenceId);
      assert.equal(rows.intents[0]!.status, 'FAILED');
      assert.deepEqual([rows.transactions.length, rows.charges.length], [0, 1]);
      assert.equal((await keyRow('prod-silent'))!.response_status, 502);
      await replayOf('prod-silent', payload, res);
    });

    test('a twin during the PSP call gets 409 IDEMPOTENCY_KEY_IN_USE and sends no second cob', async () => {
      const payload = newPayload();
      const { atCall, release } = pauseTheNextCall();
      const first = create('prod-twin', payload);
      await atCall;
      assertError(await create('prod-twin', payload), 409, 'IDEMPOTENCY_KEY_IN_USE');
      release();
      const res = await first;
      assert.equal(res.statusCode, 201, res.body);
      const rows = await rowsOf(payload.referenceId);
      assert.equal(rows.intents.length, 1);
      assert.equal(cobPuts(txidOf(rows.intents[0]!.reserved_transaction_id!)), 1);
      await replayOf('prod-twin', payload, res);
    });

    /** The request's process "dies" after the PSP created the cob: commit 2 never comes. */
    const dieAfterCall = (): Promise<void> =>
      new Promise((called) => {
        pix.around = async (send) => {
          await send();
          called();
          return new Promise<never>(() => {});
        };
      });

    test('a crash between the commits: a retry after the lease resumes with the same txid and one cob', async () => {
      const payload = newPayload();
      const called = dieAfterCall();
      void create('prod-crash', payload);
      await called;
      const [claimed] = (await rowsOf(payload.referenceId)).intents;
      assert.ok(claimed?.confirm_started_at && claimed.status === 'REQUIRES_CONFIRMATION');
      assert.equal((await keyRow('prod-crash'))!.state, 'STARTED');
      assertError(await create('prod-crash', payload), 409, 'IDEMPOTENCY_KEY_IN_USE');
      t.clock.advance(IDEMPOTENCY_LEASE_MS + 1000);
      const res = await create('prod-crash', payload);
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json<Intent>().id, claimed.id);
      const txid = txidOf(claimed.reserved_transaction_id!);
      assert.equal(psp.cobs.has(txid), true);
      assert.equal([...psp.cobs.keys()].filter((k) => k === txid).length, 1);
      const rows = await rowsOf(payload.referenceId);
      assert.deepEqual([rows.intents.length, rows.transactions.length, rows.events.length, rows.charges.length], [1, 1, 1, 1]);
      assert.equal(res.json<Intent>().transaction!.paymentDetails.pix.qrCode, psp.cobs.get(txid)!.pixCopiaECola);
      await replayOf('prod-crash', payload, res);
    });

    test('a crash between the commits that nobody retries: the worker finishes it from the PSP’s record', async () => {
      const payload = newPayload();
      const called = dieAfterCall();
      void create('prod-worker', payload);
      await called;
      const puts = psp.requests.filter((r) => r.method === 'PUT').length;
      t.clock.advance(IDEMPOTENCY_LEASE_MS + 1000);
      await t.services.intents.recoverStuckConfirmations();
      const rows = await rowsOf(payload.referenceId);
      assert.equal(rows.intents[0]!.status, 'CONFIRMED');
      assert.deepEqual([rows.transactions.length, rows.events.length], [1, 1]);
      assert.equal(psp.requests.filter((r) => r.method === 'PUT').length, puts, 'no second PUT /cob');
      const replay = await create('prod-worker', payload);
      assert.equal(replay.statusCode, 201);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.json<Intent>().id, rows.intents[0]!.id);
    });

    const confirm = (id: string, key: string) => t.call({ method: 'POST', url: `/v2/payment-intents/${id}/confirm`, headers: { 'idempotency-key': key } });
    const createUnconfirmed = async () => {
      const res = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ referenceId: `prod-order-${++orders}` }) });
      assert.equal(res.statusCode, 201, res.body);
      return res.json<Intent>();
    };

    test('POST …/confirm: the key, the claim and the txid in one commit, the outcome in one more; GET shows it, a replay is byte for byte', async () => {
      const intent = await createUnconfirmed();
      const res = await confirm(intent.id, 'prod-confirm');
      assert.equal(res.statusCode, 201, res.body);
      const transaction = res.json<{ id: string; paymentDetails: { pix: { qrCode: string } } }>();
      const rows = await rowsOf(intent.referenceId);
      const txid = txidOf(rows.intents[0]!.reserved_transaction_id!);
      assert.equal(rows.intents[0]!.status, 'CONFIRMED');
      assert.equal(rows.intents[0]!.confirm_key, 'prod-confirm');
      assert.equal(transaction.paymentDetails.pix.qrCode, psp.cobs.get(txid)!.pixCopiaECola);
      assert.deepEqual([rows.transactions.length, rows.events.length, rows.charges.length, cobPuts(txid)], [1, 1, 1, 1]);
      assert.deepEqual([rows.transactions[0]!.version, JSON.parse(rows.events[0]!.body).data.transaction.version], [1, 1], 'created: version 1 in the row and the event');
      assert.deepEqual(transaction, (await t.call({ method: 'GET', url: `/v2/transactions/${transaction.id}` })).json());
      const replay = await confirm(intent.id, 'prod-confirm');
      assert.equal(replay.body, res.body);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assertError(await confirm(intent.id, 'prod-confirm-other'), 409, 'INTENT_ALREADY_PROCESSED');
    });

    test('POST …/confirm: a twin during the call gets 409; after a crash between the commits a retry resumes with one cob', async () => {
      const intent = await createUnconfirmed();
      const called = dieAfterCall();
      void confirm(intent.id, 'prod-confirm-crash');
      await called;
      assertError(await confirm(intent.id, 'prod-confirm-crash'), 409, 'IDEMPOTENCY_KEY_IN_USE');
      assertError(await confirm(intent.id, 'prod-confirm-crash-2'), 409, 'INTENT_ALREADY_PROCESSED');
      t.clock.advance(IDEMPOTENCY_LEASE_MS + 1000);
      const res = await confirm(intent.id, 'prod-confirm-crash');
      assert.equal(res.statusCode, 201, res.body);
      const rows = await rowsOf(intent.referenceId);
      const txid = txidOf(rows.intents[0]!.reserved_transaction_id!);
      assert.equal(psp.cobs.has(txid), true);
      assert.deepEqual([rows.transactions.length, rows.events.length, rows.charges.length], [1, 1, 1]);
      const replay = await confirm(intent.id, 'prod-confirm-crash');
      assert.equal(replay.body, res.body);
    });

    test('the worker records FAILED while the call is in flight: the late answer confirms nothing (the guarded statement aborts)', async () => {
      const payload = newPayload();
      const { atCall, release } = pauseTheNextCall();
      const first = create('prod-late', payload);
      await atCall;
      // No cob at the PSP yet: the worker finds no record and fails the intent, PROVIDER_ERROR stored under the key.
      t.clock.advance(IDEMPOTENCY_LEASE_MS + 1000);
      await t.services.intents.recoverStuckConfirmations();
      assert.equal((await rowsOf(payload.referenceId)).intents[0]!.status, 'FAILED');
      release();
      // The locked phase 3 answers what the worker recorded; the key it finished is no longer this request's.
      assertError(await first, 409, 'IDEMPOTENCY_KEY_IN_USE');
      const rows = await rowsOf(payload.referenceId);
      assert.equal(rows.intents[0]!.status, 'FAILED');
      assert.deepEqual([rows.transactions.length, rows.events.length], [0, 0]);
      const replay = await create('prod-late', payload);
      assertError(replay, 502, 'PROVIDER_ERROR');
    });

    test('POST …/confirm of a payment link\'s intent takes the link\'s slot under its lock: a used-up link is refused before any cob', async () => {
      const link = await t.call({ method: 'POST', url: '/v2/payment-links', payload: { amountCents: 15_990, description: 'Curso', paymentMethods: ['PIX'], maxPayments: 1 } });
      assert.equal(link.statusCode, 201, link.body);
      const linkId = link.json<{ id: string }>().id;
      const page = await t.app.inject({ method: 'GET', url: `/pay/${linkId}` });
      const token = JSON.parse(/<script type="application\/json" id="page-data">(.*?)<\/script>/s.exec(page.body)![1]!).token as string;
      const pay = () => t.app.inject({ method: 'POST', url: `/pay/${linkId}/intents`, payload: { paymentMethod: 'PIX', buyer: BUYER }, headers: { origin: PUBLIC_API_URL, 'x-pay-token': token } });
      assert.equal((await pay()).statusCode, 201);
      assertError(await pay(), 409, 'PAYMENT_LINK_UNAVAILABLE');
      // The loser of a race at the page: its intent created, its confirmation refused (made here from the winner's row).
      const winner = await t.db.db.selectFrom('payment_intents').selectAll().where('payment_link_id', '=', linkId).executeTakeFirstOrThrow();
      // Another id of the same shape: the winner's with a different last character.
      const loserId = `pi_${winner.id.slice(3, -1)}${winner.id.endsWith('z') ? 'y' : 'z'}`;
      await t.db.db
        .insertInto('payment_intents')
        .values({
          ...winner,
          id: loserId,
          status: 'REQUIRES_CONFIRMATION',
          reference_id: `${winner.reference_id}-2`,
          buyer: JSON.stringify(winner.buyer),
          metadata: winner.metadata ? JSON.stringify(winner.metadata) : null,
          split_rules: winner.split_rules ? JSON.stringify(winner.split_rules) : null,
          confirm_started_at: null,
          confirm_key: null,
          create_key: null,
          reserved_transaction_id: null,
          transaction_id: null,
        })
        .execute();
      const puts = psp.requests.filter((r) => r.method === 'PUT').length;
      // The seller confirming it with its own key meets the same guard, on the two-commit path too.
      assertError(await confirm(loserId, 'link-seller-confirm'), 409, 'PAYMENT_LINK_UNAVAILABLE');
      assert.equal(psp.requests.filter((r) => r.method === 'PUT').length, puts, 'no cob asked');
      assert.equal((await t.db.db.selectFrom('payment_intents').select('status').where('id', '=', loserId).executeTakeFirstOrThrow()).status, 'REQUIRES_CONFIRMATION');
    });
  });
}
