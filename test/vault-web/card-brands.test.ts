/**
 * The hosted fields know exactly the card brands the vault knows: the served
 * bundle is checked against the server's table (src/modules/vault/card-brands.ts)
 * brand by brand and prefix range by prefix range, so a browser-side copy of
 * the table that drifts (a brand, a range, a length or a CVV length missing
 * or different) fails here.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  CARD_BRANDS,
  CARD_BRAND_NAMES,
  CARD_BRAND_PREFIXES,
  CARD_NUMBER_LENGTHS,
  CVV_LENGTHS,
  detectBrand,
} from '../../src/modules/vault/card-brands.js';
import { loadHostedFields } from '../helpers/hosted-fields-bundle.js';

const hf = loadHostedFields();
// Values built inside the VM come from another realm: compare them as JSON.
const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

/** A card number starting with prefix: zeros up to the length, or the prefix itself when longer. */
const numberFrom = (prefix: number, length: number) => String(prefix).padEnd(length, '0');

describe('card brands: browser and server share one table', () => {
  test('every brand the server knows has the same name, lengths and CVV length in the browser', () => {
    for (const brand of CARD_BRANDS) {
      assert.deepEqual(
        plain(hf.brandInfo(brand)),
        { name: CARD_BRAND_NAMES[brand], lengths: [...CARD_NUMBER_LENGTHS[brand]], cvv: CVV_LENGTHS[brand] },
        brand,
      );
    }
  });

  test('every prefix range of the server reads as the server\'s brand, at both ends and just outside', () => {
    const seen = new Set<string>();
    let checked = 0;
    for (const [, ranges] of CARD_BRAND_PREFIXES) {
      for (const [from, to] of ranges) {
        for (const prefix of [from, to, Math.floor((from + to) / 2), from - 1, to + 1]) {
          for (const length of [16, 19]) {
            const number = numberFrom(prefix, length);
            const server = detectBrand(number) ?? null;
            assert.equal(hf.detectBrand(number), server, `${number}: the server says ${server}`);
            if (server) seen.add(server);
            checked++;
          }
        }
      }
    }
    assert.ok(checked > 400, `${checked} numbers checked`);
    assert.deepEqual([...seen].sort(), [...CARD_BRANDS].sort(), 'each brand is detected somewhere in its ranges');
  });

  test('Aura (which the browser once lacked) is detected, sized and accepted', () => {
    assert.equal(hf.detectBrand('5000000000000009'), 'aura');
    assert.equal(hf.brandInfo('aura').name, 'Aura');
    assert.deepEqual(plain(hf.validateNumber('5000 0000 0000 0009')), { empty: false, complete: true, valid: true, brand: 'aura', error: null });
    // Elo's BINs inside Aura's 50 stay Elo, as on the server.
    assert.equal(hf.detectBrand('5067000000000009'), 'elo');
    // Hiper's BINs (reported as Hipercard by the server) too.
    assert.equal(hf.detectBrand('6370950000000005'), 'hipercard');
  });

  test('while typing, a brand shows only once nearly every number that could follow has it', () => {
    assert.equal(hf.detectBrand('4'), 'visa', 'Elo holds a few 4… BINs only');
    assert.equal(hf.detectBrand('65'), 'discover', 'Elo holds a few 65… BINs only');
    assert.equal(hf.detectBrand('505'), 'aura', 'no Elo BIN starts 505');
    assert.equal(hf.detectBrand('50'), null, 'about a tenth of 50… is Elo');
    assert.equal(hf.detectBrand('5067'), null, '506700–506778 is Elo, the rest Aura');
    assert.equal(hf.detectBrand('506779'), 'aura');
    assert.equal(hf.detectBrand('3841'), 'diners', 'three 3841x0 BINs are Hipercard, the rest Diners');
    assert.equal(hf.detectBrand('384100'), 'hipercard');
  });
});
