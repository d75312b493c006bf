import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { newId } from '../../src/lib/ids.js';
import { addDays, saoPauloDate } from '../../src/lib/sao-paulo-date.js';
import { digitableLineToBarcode, validateDigitableLine } from '../../src/modules/boleto/index.js';
import { parseBrCode, parseTlv, PIX_GUI } from '../../src/modules/pix/index.js';
import { engines } from '../helpers/db.js';
import { settled } from '../helpers/outcome.js';
import { startTestApp, runWorker, type TestApp } from '../helpers/app.js';
import { assertError } from '../helpers/assert.js';
import { boletoIntent, cardIntent, pixIntent } from '../helpers/fixtures.js';

const FIVE_MINUTES = 5 * 60_000;

type Json = Record<string, any>;

function create(t: TestApp, body: Json, key?: string) {
  return t.call({ method: 'POST', url: '/v2/payment-intents', payload: body, headers: key ? { 'idempotency-key': key } : {} });
}
function confirm(t: TestApp, id: string, key: string = randomUUID(), payload?: Json) {
  return t.call({ method: 'POST', url: `/v2/payment-intents/${id}/confirm`, headers: { 'idempotency-key': key }, ...(payload ? { payload } : {}) });
}
function cancel(t: TestApp, id: string) {
  return t.call({ method: 'POST', url: `/v2/payment-intents/${id}/cancel` });
}
function getIntent(t: TestApp, id: string) {
  return t.call({ method: 'GET', url: `/v2/payment-intents/${id}` });
}
async function created(t: TestApp, body: Json): Promise<Json> {
  const res = await create(t, body);
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}
async function transactionRows(t: TestApp, intentId: string) {
  return t.db.db.selectFrom('transactions').selectAll().where('payment_intent_id', '=', intentId).execute();
}
async function eventRows(t: TestApp, transactionId: string) {
  return t.db.db.selectFrom('events').selectAll().where('transaction_id', '=', transactionId).execute();
}

for (const engine of engines()) {
  describe(`payment intents on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine);
    });
    after(async () => {
      await t.close();
    });

    test('creating a Pix intent answers 201 REQUIRES_CONFIRMATION expiring 5 minutes after creation', async () => {
      const intent = await created(t, pixIntent({ description: 'Pedido 1', metadata: { cart: '42' } }));
      assert.match(intent.id, /^pi_[0-9a-z]{26}$/);
      assert.equal(intent.status, 'REQUIRES_CONFIRMATION');
      assert.equal(intent.amountCents, 10_000);
      assert.equal(intent.paymentMethod, 'PIX');
      assert.equal(intent.referenceId, 'order-1');
      assert.deepEqual(intent.metadata, { cart: '42' });
      assert.equal(intent.createdAt, t.clock.now().toISOString());
      assert.equal(Date.parse(intent.expiresAt) - Date.parse(intent.createdAt), FIVE_MINUTES);
      assert.equal(intent.transactionId, undefined);

      const read = await getIntent(t, intent.id);
      assert.equal(read.statusCode, 200);
      assert.deepEqual(read.json(), intent);
    });

    test('creating a card intent answers REQUIRES_TOKEN', async () => {
      const intent = await created(t, cardIntent({ installments: 3 }));
      assert.equal(intent.status, 'REQUIRES_TOKEN');
      assert.equal(intent.installments, 3);
    });

    test('confirming a Pix intent gives a PENDING transaction with a valid BR Code and a 0.99 % half-up fee', async () => {
      const intent = await created(t, pixIntent({ amountCents: 10_051 }));
      t.clock.advance(120_000); // the Pix window counts from confirmation, not creation
      const res = await confirm(t, intent.id);
      assert.equal(res.statusCode, 201, res.body);
      const trx = res.json();
      assert.match(trx.id, /^trx_/);
      assert.equal(trx.status, 'PENDING');
      assert.equal(trx.paymentIntentId, intent.id);
      assert.equal(trx.amountCents, 10_051);
      assert.equal(trx.feeCents, 100); // 99.5049 rounds up
      assert.equal(trx.feeCents + trx.netAmountCents, trx.amountCents);
      assert.equal(trx.installments, 1);
      assert.equal(trx.currency, 'BRL');
      assert.equal(trx.sellerId, t.companyId);
      assert.deepEqual(trx.split, { receivables: [] });

      const pix = trx.paymentDetails.pix;
      const fields = parseBrCode(pix.qrCode);
      const account = parseTlv(fields.get('26')!);
      assert.equal(account.get('00'), PIX_GUI);
      assert.ok(account.get('25')!.endsWith(`/${trx.id}`));
      assert.ok(!account.get('25')!.includes('://'));
      assert.equal(fields.get('54'), '100.51');
      assert.equal(fields.get('53'), '986');
      assert.ok(Buffer.from(pix.qrCodeImageBase64, 'base64').subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])));
      assert.equal(pix.expiresAt, new Date(t.clock.now().getTime() + 3600_000).toISOString());

      const after = (await getIntent(t, intent.id)).json();
      assert.equal(after.status, 'CONFIRMED');
      assert.equal(after.transactionId, trx.id);
    });

    test('pix.expiresInSeconds sets the QR code expiry from confirmation', async () => {
      const intent = await created(t, pixIntent({ pix: { expiresInSeconds: 600 } }));
      const trx = (await confirm(t, intent.id)).json();
      assert.equal(trx.paymentDetails.pix.expiresAt, new Date(t.clock.now().getTime() + 600_000).toISOString());
      assert.equal(trx.feeCents, 99);
    });

    test('confirming a boleto gives a valid digitable line, due today + 3 (São Paulo) and a 349 fee', async () => {
      const intent = await created(t, boletoIntent({ amountCents: 12_345 }));
      const res = await confirm(t, intent.id);
      assert.equal(res.statusCode, 201, res.body);
      const trx = res.json();
      const boleto = trx.paymentDetails.boleto;
      assert.match(boleto.digitableLine, /^\d{47}$/);
      assert.deepEqual(validateDigitableLine(boleto.digitableLine), { valid: true });
      assert.match(boleto.barcode, /^\d{44}$/);
      assert.equal(digitableLineToBarcode(boleto.digitableLine), boleto.barcode);
      assert.equal(boleto.barcode.slice(9, 19), '0000012345');
      assert.equal(boleto.dueDate, addDays(saoPauloDate(t.clock.now()), 3));
      assert.equal(trx.feeCents, 349);
      assert.equal(trx.netAmountCents, 12_345 - 349);
    });

    test('confirm: true creates and confirms in one call and returns the transaction inside the intent', async () => {
      const res = await create(t, pixIntent({ confirm: true }));
      assert.equal(res.statusCode, 201, res.body);
      const intent = res.json();
      assert.equal(intent.status, 'CONFIRMED');
      assert.equal(intent.transaction.status, 'PENDING');
      assert.equal(intent.transactionId, intent.transaction.id);
      assert.ok(intent.transaction.paymentDetails.pix.qrCode);
      const trx = await t.call({ method: 'GET', url: `/v2/transactions/${intent.transactionId}` });
      assert.deepEqual(trx.json(), intent.transaction);

      const boleto = await create(t, boletoIntent({ confirm: true }));
      assert.equal(boleto.statusCode, 201, boleto.body);
      assert.deepEqual(validateDigitableLine(boleto.json().transaction.paymentDetails.boleto.digitableLine), { valid: true });
    });

    test('confirm: true with a card is 400 VALIDATION_ERROR on field confirm', async () => {
      assertError(await create(t, cardIntent({ confirm: true })), 400, 'VALIDATION_ERROR', 'confirm');
    });

    test('confirming a card intent without a token is 400 TOKEN_REQUIRED naming token, and the intent is untouched', async () => {
      const intent = await created(t, cardIntent());
      assertError(await confirm(t, intent.id), 400, 'TOKEN_REQUIRED', 'token');
      assert.equal((await getIntent(t, intent.id)).json().status, 'REQUIRES_TOKEN');
      assert.equal((await transactionRows(t, intent.id)).length, 0);
    });

    test('a silent acquirer on confirm: true is 502 PROVIDER_ERROR and the intent is FAILED', async () => {
      const res = await create(t, pixIntent({ amountCents: 50_200, confirm: true, referenceId: 'silent-1' }));
      assertError(res, 502, 'PROVIDER_ERROR');
      const row = await t.db.db.selectFrom('payment_intents').selectAll().where('reference_id', '=', 'silent-1').executeTakeFirstOrThrow();
      assert.equal((await getIntent(t, row.id)).json().status, 'FAILED');
      assert.equal((await transactionRows(t, row.id)).length, 0);
    });

    test('a silent acquirer on confirm is 502 PROVIDER_ERROR, the intent is FAILED, and a retry is replayed', async () => {
      const intent = await created(t, boletoIntent({ amountCents: 50_200 }));
      const key = randomUUID();
      const res = await confirm(t, intent.id, key);
      assertError(res, 502, 'PROVIDER_ERROR');
      assert.equal((await getIntent(t, intent.id)).json().status, 'FAILED');
      assert.equal((await transactionRows(t, intent.id)).length, 0);
      const replay = await confirm(t, intent.id, key);
      assert.equal(replay.statusCode, 502);
      assert.equal(replay.body, res.body);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assertError(await confirm(t, intent.id), 409, 'INTENT_ALREADY_PROCESSED');
    });

    test('cancel moves an unconfirmed intent to CANCELED; a second cancel or a confirm is 409', async () => {
      const intent = await created(t, pixIntent());
      const res = await cancel(t, intent.id);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'CANCELED');
      assert.equal(res.json().id, intent.id);
      assert.equal((await getIntent(t, intent.id)).json().status, 'CANCELED');
      assertError(await cancel(t, intent.id), 409, 'INTENT_ALREADY_PROCESSED');
      assertError(await confirm(t, intent.id), 409, 'INTENT_ALREADY_PROCESSED');
      assert.equal((await transactionRows(t, intent.id)).length, 0);
    });

    test('cancel of a confirmed intent is 409 INTENT_ALREADY_PROCESSED and the transaction stays', async () => {
      const intent = await created(t, pixIntent());
      const trx = (await confirm(t, intent.id)).json();
      const refused = await cancel(t, intent.id);
      assertError(refused, 409, 'INTENT_ALREADY_PROCESSED');
      assert.equal(refused.json().message, 'The payment intent is already CONFIRMED', 'not "is being confirmed"');
      assert.equal((await getIntent(t, intent.id)).json().status, 'CONFIRMED');
      assert.equal((await t.call({ method: 'GET', url: `/v2/transactions/${trx.id}` })).json().status, 'PENDING');
    });

    test('an intent is EXPIRED exactly 5 minutes after creation: confirm and cancel answer INTENT_EXPIRED', async () => {
      const intent = await created(t, pixIntent());
      t.clock.advance(FIVE_MINUTES - 1);
      assert.equal((await getIntent(t, intent.id)).json().status, 'REQUIRES_CONFIRMATION');
      t.clock.advance(1);
      assert.equal((await getIntent(t, intent.id)).json().status, 'EXPIRED');
      assertError(await confirm(t, intent.id), 409, 'INTENT_EXPIRED');
      assertError(await cancel(t, intent.id), 409, 'INTENT_EXPIRED');
      assert.equal((await transactionRows(t, intent.id)).length, 0);
    });

    test('an intent confirmed before its expiry stays CONFIRMED after it', async () => {
      const intent = await created(t, pixIntent());
      t.clock.advance(FIVE_MINUTES - 1);
      assert.equal((await confirm(t, intent.id)).statusCode, 201);
      t.clock.advance(FIVE_MINUTES);
      assert.equal((await getIntent(t, intent.id)).json().status, 'CONFIRMED');
      assertError(await confirm(t, intent.id), 409, 'INTENT_ALREADY_PROCESSED');
    });

    test('the worker persists EXPIRED in the row of an expired intent and leaves live ones alone', async () => {
      const old = await created(t, pixIntent());
      t.clock.advance(FIVE_MINUTES);
      const fresh = await created(t, pixIntent());
      const status = async (id: string) =>
        (await t.db.db.selectFrom('payment_intents').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
      assert.equal(await status(old.id), 'REQUIRES_CONFIRMATION'); // reads derive EXPIRED before any sweep
      assert.equal((await getIntent(t, old.id)).json().status, 'EXPIRED');
      await runWorker(t);
      assert.equal(await status(old.id), 'EXPIRED');
      assert.equal(await status(fresh.id), 'REQUIRES_CONFIRMATION');
      assert.equal((await getIntent(t, old.id)).json().status, 'EXPIRED');
    });

    test('confirming again with another Idempotency-Key is 409; with the same key it replays the same bytes', async () => {
      const intent = await created(t, pixIntent());
      const key = randomUUID();
      const first = await confirm(t, intent.id, key);
      assert.equal(first.statusCode, 201);
      assertError(await confirm(t, intent.id), 409, 'INTENT_ALREADY_PROCESSED');
      t.clock.advance(1_000);
      const again = await confirm(t, intent.id, key);
      assert.equal(again.statusCode, 201);
      assert.equal(again.body, first.body);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      const rows = await transactionRows(t, intent.id);
      assert.equal(rows.length, 1);
      assert.equal((await eventRows(t, rows[0]!.id)).length, 1);
    });

    test('20 concurrent confirms with different keys: exactly one 201, nineteen 409 and one transaction', async () => {
      const intent = await created(t, pixIntent());
      const results = await Promise.all(Array.from({ length: 20 }, () => confirm(t, intent.id)));
      const statuses = results.map((r) => r.statusCode);
      assert.equal(statuses.filter((s) => s === 201).length, 1, statuses.join(','));
      const conflicts = results.filter((r) => r.statusCode === 409);
      assert.equal(conflicts.length, 19, statuses.join(','));
      for (const r of conflicts) assert.equal(r.json().code, 'INTENT_ALREADY_PROCESSED');
      const rows = await transactionRows(t, intent.id);
      assert.equal(rows.length, 1);
      assert.equal(results.find((r) => r.statusCode === 201)!.json().id, rows[0]!.id);
      assert.equal((await eventRows(t, rows[0]!.id)).length, 1);
    });

    test('confirm writes exactly one transaction.created event whose body carries the transaction as GET shows it', async () => {
      const intent = await created(t, boletoIntent());
      const trx = (await confirm(t, intent.id)).json();
      const events = await eventRows(t, trx.id);
      assert.equal(events.length, 1);
      const event = events[0]!;
      assert.equal(event.type, 'transaction.created');
      assert.equal(event.company_id, t.companyId);
      const body = JSON.parse(event.body);
      assert.deepEqual(Object.keys(body), ['id', 'type', 'createdAt', 'data']);
      assert.match(body.id, /^evt_[0-9a-z]{26}$/);
      assert.equal(body.id, event.id);
      assert.equal(body.type, 'transaction.created');
      assert.equal(body.createdAt, t.clock.now().toISOString());
      const read = await t.call({ method: 'GET', url: `/v2/transactions/${trx.id}` });
      assert.deepEqual(body.data, { transaction: read.json() });
    });

    test("another company's intent is 404 on read, confirm and cancel", async () => {
      const other = settled(await t.services.companies.createCompany('Outra Loja Ltda', '00000000000191'));
      const { key } = settled(await t.services.companies.issueKey(other.id));
      const intent = await created(t, pixIntent());
      const asOther = { authorization: `Bearer ${key}` };
      assertError(await t.call({ method: 'GET', url: `/v2/payment-intents/${intent.id}`, headers: asOther }), 404, 'NOT_FOUND');
      const conf = await t.call({ method: 'POST', url: `/v2/payment-intents/${intent.id}/confirm`, headers: { ...asOther, 'idempotency-key': 'k1' } });
      assertError(conf, 404, 'NOT_FOUND');
      assertError(await t.call({ method: 'POST', url: `/v2/payment-intents/${intent.id}/cancel`, headers: asOther }), 404, 'NOT_FOUND');
      assert.equal((await getIntent(t, intent.id)).json().status, 'REQUIRES_CONFIRMATION');
    });

    test('an id with a wrong prefix or unknown is 404; an id over 64 characters is 400 on field id', async () => {
      const intent = await created(t, pixIntent());
      const asTrx = `trx_${intent.id.slice(3)}`;
      assertError(await getIntent(t, asTrx), 404, 'NOT_FOUND');
      assertError(await confirm(t, asTrx), 404, 'NOT_FOUND');
      assertError(await getIntent(t, newId('pi')), 404, 'NOT_FOUND');
      assertError(await getIntent(t, 'pi_nothing'), 404, 'NOT_FOUND');
      assertError(await getIntent(t, `pi_${'a'.repeat(61)}`), 404, 'NOT_FOUND'); // 64 characters
      assertError(await getIntent(t, `pi_${'a'.repeat(62)}`), 400, 'VALIDATION_ERROR', 'id'); // 65
      assertError(await confirm(t, `pi_${'a'.repeat(62)}`), 400, 'VALIDATION_ERROR', 'id');
      assertError(await cancel(t, `pi_${'a'.repeat(62)}`), 400, 'VALIDATION_ERROR', 'id');
    });
  });
}
