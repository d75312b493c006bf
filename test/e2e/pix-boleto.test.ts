/**
 * E2E over real HTTP against `svc serve`: the Pix and boleto flows (create →
 * confirm → sandbox pay, and `confirm: true` in one call), checked with
 * validators written here, independently of the service's own code:
 *  - Pix BR Code: EMV TLV walk, the mandatory fields of a dynamic code, and
 *    CRC16/CCITT-FALSE (own implementation); the PNG decodes (pngjs + jsqr)
 *    to exactly the copy-and-paste string;
 *  - boleto: FEBRABAN digitable line (mod-10 field digits) and barcode
 *    (mod-11 general digit), due-date factor with the 2025-02-22 restart,
 *    amount field, and the line ↔ barcode rearrangement;
 *  - fees: Pix 0.99 % half-up, boleto 349 flat.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { idemKey, startServer, type TestServer } from '../helpers/server.js';
import { boletoIntent, pixIntent } from '../helpers/fixtures.js';

// jsqr is CommonJS; under NodeNext its default import is typed as the module object.
const jsQR = jsQRModule.default;

// ---- independent Pix BR Code validator -------------------------------------

/** CRC16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor. */
function crc16CcittFalse(text: string): number {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}

interface Tlv {
  id: string;
  value: string;
}

/** Walks EMV TLV: 2-digit id, 2-digit length, value; the whole string must be consumed exactly. */
function parseTlv(text: string, where: string): Tlv[] {
  const out: Tlv[] = [];
  let i = 0;
  while (i < text.length) {
    const head = text.slice(i, i + 4);
    assert.match(head, /^\d{4}$/, `${where}: bad TLV header at offset ${i}: "${head}"`);
    const id = head.slice(0, 2);
    const len = Number(head.slice(2, 4));
    assert.ok(len >= 1, `${where}: field ${id} is empty`);
    assert.ok(i + 4 + len <= text.length, `${where}: field ${id} runs past the end`);
    out.push({ id, value: text.slice(i + 4, i + 4 + len) });
    i += 4 + len;
  }
  return out;
}

function only(fields: Tlv[], id: string, where: string): string {
  const found = fields.filter((f) => f.id === id);
  assert.equal(found.length, 1, `${where}: field ${id} must appear exactly once`);
  return found[0]!.value;
}

/** Asserts `code` is a valid dynamic Pix BR Code for `amountCents`; returns its location (26-25). */
function assertDynamicPixBrCode(code: string, amountCents: number): { location: string } {
  assert.ok(code.length <= 512, 'a BR Code has at most 512 characters');
  assert.match(code, /^[\x20-\x7e]+$/, 'printable ASCII only');
  const fields = parseTlv(code, 'BR Code');
  assert.equal(fields[0]!.id, '00', 'field 00 comes first');
  assert.equal(fields.at(-1)!.id, '63', 'field 63 (CRC) comes last');
  const ids = fields.map((f) => f.id);
  assert.deepEqual([...ids].sort(), ids, 'fields are in ascending id order');

  assert.equal(only(fields, '00', 'BR Code'), '01', 'payload format indicator 00 = 01');
  assert.equal(only(fields, '01', 'BR Code'), '12', 'point of initiation 01 = 12 (dynamic, single use)');

  const account = parseTlv(only(fields, '26', 'BR Code'), 'field 26');
  assert.equal(only(account, '00', 'field 26'), 'br.gov.bcb.pix', 'GUI 26-00');
  const location = only(account, '25', 'field 26');
  assert.ok(!/^[a-z][a-z0-9+.-]*:/i.test(location) && !location.includes('//'), `location "${location}" must carry no scheme`);
  assert.match(location, /^[a-z0-9-]+(\.[a-z0-9-]+)+(\/[!-~]*)?$/i, 'location is host[/path]');
  assert.ok(location.length <= 77, 'location fits field 26-25');
  assert.ok(!account.some((f) => f.id === '01'), 'a dynamic code carries a location, not a key (26-01)');

  assert.match(only(fields, '52', 'BR Code'), /^\d{4}$/, 'merchant category code 52');
  assert.equal(only(fields, '53', 'BR Code'), '986', 'currency 53 = 986 (BRL)');
  const amount = only(fields, '54', 'BR Code');
  assert.match(amount, /^\d{1,10}\.\d{2}$/, `amount 54 "${amount}" is decimal with 2 places`);
  assert.equal(Number(amount.replace('.', '')), amountCents, 'amount 54 = amountCents');
  assert.equal(only(fields, '58', 'BR Code'), 'BR', 'country 58 = BR');
  const name = only(fields, '59', 'BR Code');
  assert.ok(name.length >= 1 && name.length <= 25, 'merchant name 59 has 1 to 25 characters');
  const city = only(fields, '60', 'BR Code');
  assert.ok(city.length >= 1 && city.length <= 15, 'merchant city 60 has 1 to 15 characters');
  const extra = parseTlv(only(fields, '62', 'BR Code'), 'field 62');
  assert.match(only(extra, '05', 'field 62'), /^[A-Za-z0-9*]{1,25}$/, 'reference label 62-05');

  assert.equal(only(fields, '63', 'BR Code').length, 4, 'CRC field 63 has 4 characters');
  assert.ok(code.endsWith(fields.at(-1)!.value) && code.slice(-8, -4) === '6304', 'code ends with 6304 + CRC');
  const crc = code.slice(-4);
  assert.match(crc, /^[0-9A-F]{4}$/, 'CRC is uppercase hexadecimal');
  const expected = crc16CcittFalse(code.slice(0, -4)).toString(16).toUpperCase().padStart(4, '0');
  assert.equal(crc, expected, 'CRC16 CCITT-FALSE over everything up to and including "6304"');
  return { location };
}

function decodeQrPng(base64: string): string {
  assert.match(base64, /^[A-Za-z0-9+/]+={0,2}$/, 'plain base64, no data: prefix');
  const png = PNG.sync.read(Buffer.from(base64, 'base64'));
  const qr = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  assert.ok(qr, 'jsQR found a QR code in the PNG');
  return qr.data;
}

// ---- independent FEBRABAN boleto validator --------------------------------

const DAY_MS = 86_400_000;
const utcDay = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));

/** Due-date factor: days since 1997-10-07, restarted at 1000 on 2025-02-22 (then every 9000 days). */
function dueDateFactor(dueDate: string): string {
  const restart = utcDay('2025-02-22');
  const day = utcDay(dueDate);
  const factor = day >= restart ? 1000 + (((day - restart) / DAY_MS) % 9000) : (day - utcDay('1997-10-07')) / DAY_MS;
  return String(factor).padStart(4, '0');
}

/** Mod 10: weights 2,1,2,1… from the right, digits of each product summed. */
function mod10(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    const p = Number(digits[i]) * weight;
    sum += p > 9 ? p - 9 : p;
    weight = weight === 2 ? 1 : 2;
  }
  return (10 - (sum % 10)) % 10;
}

/** Mod 11 general digit: weights 2..9 from the right; 11 - remainder, and 0, 10, 11 become 1. */
function mod11General(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    sum += Number(digits[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const dv = 11 - (sum % 11);
  return dv === 0 || dv === 10 || dv === 11 ? 1 : dv;
}

/** Throws unless line and barcode are a valid, matching FEBRABAN pair for this amount and due date. */
function assertBoleto(digitableLine: string, barcode: string, amountCents: number, dueDate: string): void {
  assert.match(digitableLine, /^\d{47}$/, 'digitable line has 47 digits');
  assert.match(barcode, /^\d{44}$/, 'barcode has 44 digits');

  // Barcode: bank(3) currency(1) DV(1) factor(4) amount(10) free field(25).
  assert.equal(barcode[3], '9', 'currency code 9 (real)');
  assert.equal(Number(barcode[4]), mod11General(barcode.slice(0, 4) + barcode.slice(5)), 'barcode general digit (mod 11)');
  assert.equal(barcode.slice(5, 9), dueDateFactor(dueDate), `due-date factor of ${dueDate}`);
  assert.equal(barcode.slice(9, 19), String(amountCents).padStart(10, '0'), 'amount field = amountCents');

  // Line: field 1 = bank+currency+free[0..5)+DV, 2 = free[5..15)+DV, 3 = free[15..25)+DV, 4 = general DV, 5 = factor+amount.
  const f1 = digitableLine.slice(0, 10);
  const f2 = digitableLine.slice(10, 21);
  const f3 = digitableLine.slice(21, 32);
  const f4 = digitableLine.slice(32, 33);
  const f5 = digitableLine.slice(33, 47);
  for (const [name, field] of [['1', f1], ['2', f2], ['3', f3]] as const) {
    assert.equal(Number(field.at(-1)), mod10(field.slice(0, -1)), `field ${name} check digit (mod 10)`);
  }
  const rebuilt = f1.slice(0, 4) + f4 + f5 + f1.slice(4, 9) + f2.slice(0, 10) + f3.slice(0, 10);
  assert.equal(rebuilt, barcode, 'the digitable line rearranges to the barcode');
}

// ---- the flows -------------------------------------------------------------

const saoPauloToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
const addDays = (date: string, days: number) => new Date(utcDay(date) + days * DAY_MS).toISOString().slice(0, 10);

type Json = Record<string, any>;

describe('e2e: Pix and boleto over HTTP', () => {
  let server: TestServer;

  before(async () => {
    server = await startServer({ env: { RATE_LIMIT_PER_SECOND: '1000' } });
  });
  after(async () => {
    const exit = await server?.stop();
    assert.deepEqual(exit, { code: 0, signal: null }, 'SIGTERM stops the server with exit code 0');
  });

  async function post(path: string, body?: unknown, key?: string): Promise<{ status: number; json: Json; res: Response }> {
    const res = await server.api(path, { method: 'POST', body, headers: key ? { 'idempotency-key': key } : {} });
    return { status: res.status, json: (await res.json()) as Json, res };
  }
  async function get(path: string): Promise<{ status: number; json: Json }> {
    const res = await server.api(path);
    return { status: res.status, json: (await res.json()) as Json };
  }

  test('validators reject what they should (self-check)', () => {
    // Static BR Code example of the BCB manual has a valid CRC (1D3D).
    const bcb = '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000' +
      '5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
    assert.equal(crc16CcittFalse(bcb.slice(0, -4)).toString(16).toUpperCase(), '1D3D');
    assert.equal(crc16CcittFalse('123456789'), 0x29b1, 'CRC-16/CCITT-FALSE check value');
    assert.equal(dueDateFactor('2025-02-21'), '9999');
    assert.equal(dueDateFactor('2025-02-22'), '1000');
    assert.equal(dueDateFactor('2000-07-03'), '1000');
    assert.equal(dueDateFactor('2025-03-04'), '1010');
  });

  test('Pix: create → confirm (Idempotency-Key) → PENDING with a valid BR Code and QR image → sandbox pay → PAID', async () => {
    const amountCents = 100_001;
    const created = await post('/v2/payment-intents', pixIntent({ amountCents, referenceId: 'e2e-pix-two-step', pix: { expiresInSeconds: 900 } }));
    assert.equal(created.status, 201);
    assert.match(created.json.id, /^pi_/);
    assert.equal(created.json.status, 'REQUIRES_CONFIRMATION');
    assert.equal(created.json.transactionId, undefined);

    const confirmed = await post(`/v2/payment-intents/${created.json.id}/confirm`, undefined, idemKey('pix-confirm'));
    assert.equal(confirmed.status, 201, JSON.stringify(confirmed.json));
    const trx = confirmed.json;
    assert.match(trx.id, /^trx_/);
    assert.equal(trx.status, 'PENDING');
    assert.equal(trx.paymentMethod, 'PIX');
    assert.equal(trx.installments, 1);
    assert.equal(trx.amountCents, amountCents);
    assert.equal(trx.currency, 'BRL');
    assert.equal(trx.paymentIntentId, created.json.id);
    assert.equal(trx.referenceId, 'e2e-pix-two-step');
    assert.equal(trx.sellerId, server.companyId);
    // Fee: 0.99 % of 100001 = 990.0099 → 990 (half-up); the rest is net.
    assert.equal(trx.feeCents, 990);
    assert.equal(trx.netAmountCents, 99_011);

    const pix = trx.paymentDetails.pix as { qrCode: string; qrCodeImageBase64: string; expiresAt: string };
    assertDynamicPixBrCode(pix.qrCode, amountCents);
    assert.equal(decodeQrPng(pix.qrCodeImageBase64), pix.qrCode, 'the QR image encodes exactly the copy-and-paste code');
    const lifetime = Date.parse(pix.expiresAt) - Date.parse(trx.createdAt);
    assert.ok(Math.abs(lifetime - 900_000) <= 1_000, `pix.expiresAt = confirmation + expiresInSeconds (got ${lifetime} ms)`);

    const intent = await get(`/v2/payment-intents/${created.json.id}`);
    assert.equal(intent.json.status, 'CONFIRMED');
    assert.equal(intent.json.transactionId, trx.id);

    const paid = await post(`/v2/sandbox/transactions/${trx.id}/pay`);
    assert.equal(paid.status, 200);
    assert.equal(paid.json.status, 'PAID');
    assert.equal(paid.json.id, trx.id);
    const read = await get(`/v2/transactions/${trx.id}`);
    assert.equal(read.status, 200);
    assert.equal(read.json.status, 'PAID');
    assert.equal(read.json.paymentDetails.pix.qrCode, pix.qrCode);
  });

  test('Pix: confirm: true in one call → CONFIRMED intent carrying the PENDING transaction → pay → PAID', async () => {
    const amountCents = 4_250;
    const res = await post('/v2/payment-intents', pixIntent({ amountCents, referenceId: 'e2e-pix-one-call', confirm: true }), idemKey('pix-one'));
    assert.equal(res.status, 201, JSON.stringify(res.json));
    assert.equal(res.json.status, 'CONFIRMED');
    const trx = res.json.transaction as Json;
    assert.ok(trx, 'the intent carries the transaction');
    assert.equal(res.json.transactionId, trx.id);
    assert.equal(trx.status, 'PENDING');
    assert.equal(trx.paymentIntentId, res.json.id);
    assert.equal(trx.feeCents, 42); // 0.99 % of 4250 = 42.075 → 42
    assert.equal(trx.netAmountCents, amountCents - 42);
    const { location } = assertDynamicPixBrCode(trx.paymentDetails.pix.qrCode, amountCents);
    assert.equal(decodeQrPng(trx.paymentDetails.pix.qrCodeImageBase64), trx.paymentDetails.pix.qrCode);
    const lifetime = Date.parse(trx.paymentDetails.pix.expiresAt) - Date.parse(trx.createdAt);
    assert.ok(Math.abs(lifetime - 3_600_000) <= 1_000, `default pix lifetime is 3600 s (got ${lifetime} ms)`);

    // Each dynamic code points at its own charge.
    const other = await post('/v2/payment-intents', pixIntent({ amountCents, referenceId: 'e2e-pix-one-call-2', confirm: true }));
    assert.equal(other.status, 201);
    assert.notEqual(assertDynamicPixBrCode(other.json.transaction.paymentDetails.pix.qrCode, amountCents).location, location);

    const paid = await post(`/v2/sandbox/transactions/${trx.id}/pay`);
    assert.equal(paid.status, 200);
    assert.equal(paid.json.status, 'PAID');
    assert.equal((await get(`/v2/transactions/${trx.id}`)).json.status, 'PAID');
    assert.equal((await get(`/v2/payment-intents/${res.json.id}`)).json.status, 'CONFIRMED');
  });

  test('Boleto: create (dueDate) → confirm → PENDING with a valid line and barcode → pay → PAID', async () => {
    const amountCents = 123_456;
    const dueDate = addDays(saoPauloToday(), 10);
    const created = await post('/v2/payment-intents', boletoIntent({ amountCents, referenceId: 'e2e-boleto-two-step', boleto: { dueDate } }));
    assert.equal(created.status, 201, JSON.stringify(created.json));
    assert.equal(created.json.status, 'REQUIRES_CONFIRMATION');

    const confirmed = await post(`/v2/payment-intents/${created.json.id}/confirm`, undefined, idemKey('boleto-confirm'));
    assert.equal(confirmed.status, 201, JSON.stringify(confirmed.json));
    const trx = confirmed.json;
    assert.equal(trx.status, 'PENDING');
    assert.equal(trx.paymentMethod, 'BOLETO');
    assert.equal(trx.feeCents, 349);
    assert.equal(trx.netAmountCents, amountCents - 349);
    const boleto = trx.paymentDetails.boleto as { digitableLine: string; barcode: string; dueDate: string };
    assert.equal(boleto.dueDate, dueDate);
    assertBoleto(boleto.digitableLine, boleto.barcode, amountCents, boleto.dueDate);

    // The validator is strict: any single changed digit of the line is caught.
    for (let i = 0; i < 47; i++) {
      const changed = boleto.digitableLine.slice(0, i) + String((Number(boleto.digitableLine[i]) + 1) % 10) + boleto.digitableLine.slice(i + 1);
      assert.throws(() => assertBoleto(changed, boleto.barcode, amountCents, dueDate), assert.AssertionError, `digit ${i} changed must be rejected`);
    }

    const paid = await post(`/v2/sandbox/transactions/${trx.id}/pay`);
    assert.equal(paid.status, 200);
    assert.equal(paid.json.status, 'PAID');
    assert.equal((await get(`/v2/transactions/${trx.id}`)).json.status, 'PAID');
  });

  test('Boleto: confirm: true in one call, default due date today + 3 (São Paulo); flat fee 349', async () => {
    const amountCents = 500;
    const todayBefore = saoPauloToday();
    const res = await post('/v2/payment-intents', boletoIntent({ amountCents, referenceId: 'e2e-boleto-one-call', confirm: true }), idemKey('boleto-one'));
    const todayAfter = saoPauloToday();
    assert.equal(res.status, 201, JSON.stringify(res.json));
    assert.equal(res.json.status, 'CONFIRMED');
    const trx = res.json.transaction as Json;
    assert.equal(res.json.transactionId, trx.id);
    assert.equal(trx.status, 'PENDING');
    assert.equal(trx.feeCents, 349);
    assert.equal(trx.netAmountCents, 151);
    const boleto = trx.paymentDetails.boleto as { digitableLine: string; barcode: string; dueDate: string };
    assert.ok([addDays(todayBefore, 3), addDays(todayAfter, 3)].includes(boleto.dueDate), `default due date ${boleto.dueDate}`);
    assertBoleto(boleto.digitableLine, boleto.barcode, amountCents, boleto.dueDate);

    const paid = await post(`/v2/sandbox/transactions/${trx.id}/pay`);
    assert.equal(paid.status, 200);
    assert.equal(paid.json.status, 'PAID');
    assert.equal((await get(`/v2/transactions/${trx.id}`)).json.status, 'PAID');
  });
});
