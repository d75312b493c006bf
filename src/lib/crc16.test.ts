import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { crc16CcittFalse } from './crc16.js';

// Static example printed in the BCB "Manual de Padrões para Iniciação do Pix"
// (random key, no amount). Its field 63 is the CRC of everything before the
// four hex digits, i.e. up to and including "6304".
const BCB_EXAMPLE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000' +
  '5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';

test('standard CRC-16/CCITT-FALSE check value', () => {
  assert.equal(crc16CcittFalse('123456789'), '29B1');
});

test('empty input is the initial value', () => {
  assert.equal(crc16CcittFalse(''), 'FFFF');
});

test('matches the CRC of the BCB manual example BR Code', () => {
  const withoutCrc = BCB_EXAMPLE.slice(0, -4);
  assert.ok(withoutCrc.endsWith('6304'));
  assert.equal(crc16CcittFalse(withoutCrc), '1D3D');
  assert.equal(crc16CcittFalse(withoutCrc), BCB_EXAMPLE.slice(-4));
});

test('always 4 uppercase hex digits (leading zeros kept)', () => {
  for (const s of ['', 'a', 'A', 'Pix', '0002010102', 'ção', '\u0000']) {
    assert.match(crc16CcittFalse(s), /^[0-9A-F]{4}$/);
  }
});

test('hashes UTF-8 bytes, not UTF-16 code units', () => {
  // "é" is C3 A9 in UTF-8 (CRC 7ACB) but E9 in Latin-1 (CRC 8DF7); reference
  // values from Python's binascii.crc_hqx(data, 0xFFFF), an independent
  // CCITT-FALSE implementation.
  assert.equal(crc16CcittFalse('é'), '7ACB');
  assert.notEqual(crc16CcittFalse('é'), '8DF7');
});

test('the byte table gives what the bit-by-bit definition gives, for any text', () => {
  const bitwise = (text: string): string => {
    let crc = 0xffff;
    for (const byte of Buffer.from(text, 'utf8')) {
      crc ^= byte << 8;
      for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
    return crc.toString(16).toUpperCase().padStart(4, '0');
  };
  fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => crc16CcittFalse(text) === bitwise(text)), { numRuns: 500 });
});
