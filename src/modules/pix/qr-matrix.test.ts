/**
 * qr-matrix.ts must draw, module for module, the matrix `qrcode` draws from
 * the same segments at level M with mask pattern 2: the same version, the
 * same function patterns, data, error correction and mask. The decoders in
 * qr-image.test.ts then read what both draw.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import QRCode from 'qrcode';
import { brCodeSegments } from './qr-image.js';
import { qrMatrix, type QrSegment } from './qr-matrix.js';

function assertSameAsQrcode(segments: QrSegment[]): number {
  const expected = QRCode.create(segments, { errorCorrectionLevel: 'M', maskPattern: 2 });
  const actual = qrMatrix(segments);
  assert.equal(actual.size, expected.modules.size);
  assert.deepEqual(actual.data, Uint8Array.from(expected.modules.data));
  return expected.version;
}

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:';
const segmentArb = (maxLength: number): fc.Arbitrary<QrSegment> =>
  fc.oneof(
    fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength }).map((data) => ({ mode: 'numeric' as const, data })),
    fc.string({ unit: fc.constantFrom(...ALPHANUMERIC), minLength: 1, maxLength }).map((data) => ({ mode: 'alphanumeric' as const, data })),
    fc.uint8Array({ minLength: 1, maxLength }).map((data) => ({ mode: 'byte' as const, data })),
  );

describe('QR matrix (level M, mask pattern 2)', () => {
  test('every version from 1 to 40 is the matrix qrcode draws, for one segment of each mode', () => {
    const versions = new Set<number>();
    // Byte capacity at level M runs from 14 (version 1) to 2,331 bytes (version 40): lengths in between reach every version.
    for (let length = 1; length <= 2331; length += 3) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 131 + length) & 0xff);
      versions.add(assertSameAsQrcode([{ mode: 'byte', data: bytes }]));
    }
    for (const length of [1, 2, 3, 4, 40, 41, 42, 100, 1000, 3000]) {
      assertSameAsQrcode([{ mode: 'numeric', data: '9876543210'.repeat(300).slice(0, length) }]);
      assertSameAsQrcode([{ mode: 'alphanumeric', data: ALPHANUMERIC.repeat(70).slice(0, length) }]);
    }
    assert.deepEqual([...versions].sort((a, b) => a - b), Array.from({ length: 40 }, (_, i) => i + 1));
  });

  test('random mixes of numeric, alphanumeric and byte segments are the matrix qrcode draws', () => {
    fc.assert(fc.property(fc.array(segmentArb(120), { minLength: 1, maxLength: 8 }), (segments) => void assertSameAsQrcode(segments)), { numRuns: 400 });
  });

  test("a BR Code's segments are the matrix qrcode draws", () => {
    const code =
      '00020101021226900014br.gov.bcb.pix2568pix.sandbox.example.com.br/qr/v2/cob/0f3c1e5a9b7d4c2e8f6a1b3d5c7e9f01' +
      '5204000053039865406123.455802BR5913Loja Exemplo6009SAO PAULO62070503***6304ABCD';
    assert.ok(assertSameAsQrcode(brCodeSegments(code)) >= 5);
  });

  test('an alphanumeric segment with a character outside the 45 is refused, not drawn wrong', () => {
    assert.throws(() => qrMatrix([{ mode: 'alphanumeric', data: 'abc' }]), /not a QR alphanumeric character/);
  });

  test('data beyond version 40 is refused', () => {
    assert.throws(() => qrMatrix([{ mode: 'byte', data: new Uint8Array(2332) }]), /do not fit/);
  });
});
