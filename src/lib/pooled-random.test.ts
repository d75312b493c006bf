import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pooledRandomBytes } from './pooled-random.js';

describe('pooledRandomBytes', () => {
  it('hands out slices of the asked size that never repeat, across refills', () => {
    const seen = new Set<string>();
    // 12-byte nonces: over 5 blocks of 4 KB.
    for (let i = 0; i < 2000; i++) {
      const slice = pooledRandomBytes(12);
      assert.equal(slice.length, 12);
      const hex = slice.toString('hex');
      assert.ok(!seen.has(hex), `slice ${i} repeated an earlier one`);
      seen.add(hex);
    }
  });

  it('does not change a slice that a caller keeps while later ones are drawn', () => {
    const kept = pooledRandomBytes(32);
    const copy = Buffer.from(kept);
    for (let i = 0; i < 1000; i++) pooledRandomBytes(17);
    assert.deepEqual(kept, copy);
  });

  it('gives neighbouring slices distinct memory, and sizes over a block directly', () => {
    const a = pooledRandomBytes(8);
    const b = pooledRandomBytes(8);
    a.fill(0);
    assert.notDeepEqual(b, Buffer.alloc(8), 'writing one slice left the next one zeroed');
    assert.equal(pooledRandomBytes(10_000).length, 10_000);
    assert.equal(pooledRandomBytes(0).length, 0);
  });

  it('is not constant: bits are set about half the time', () => {
    const bytes = Buffer.concat(Array.from({ length: 512 }, () => pooledRandomBytes(16)));
    let ones = 0;
    for (const byte of bytes) for (let bit = 0; bit < 8; bit++) ones += (byte >> bit) & 1;
    const share = ones / (bytes.length * 8);
    assert.ok(share > 0.47 && share < 0.53, `share of set bits ${share}`);
  });
});
