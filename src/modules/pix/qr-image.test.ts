/**
 * The QR image must decode to exactly its BR Code with two independent
 * decoders, jsQR (JavaScript) and zbar's `zbarimg` (C; Debian package
 * zbar-tools, at /usr/bin/zbarimg or ZBARIMG_PATH), at native size and scaled
 * (nearest neighbour) to the 240 px a seller's page typically shows. The mask
 * pattern is fixed rather than chosen per code (see qr-image.ts), so this runs
 * over a few hundred random codes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { MAX_AMOUNT_CENTS } from '../../lib/money.js';
import { buildDynamicBrCode, MAX_LOCATION_LENGTH } from './br-code.js';
import QRCode from 'qrcode';
import { brCodeSegments, qrCodePng, qrCodePngBase64 } from './qr-image.js';

// jsqr is CommonJS; under NodeNext its default import is typed as the module object.
const jsQR = jsQRModule.default;
const ZBARIMG = process.env.ZBARIMG_PATH ?? '/usr/bin/zbarimg';
const CODES = 250;
const PAGE_PX = 240;
/** Measured: 615-777 bytes for these codes (versions 5 to 8, deflate level 1, run-length matching). */
const MAX_PNG_BYTES = 1024;

const runFile = promisify(execFile);

const inputArb = fc.record({
  locationUrl: fc
    .tuple(
      fc.constantFrom('pix.example.com', 'qr.psp.com.br', 'api-pix.banco.example:8443', 'pix.sandbox.svc.example'),
      fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 60 }),
    )
    .map(([host, pathPart]) => `${host}/${pathPart}`.slice(0, MAX_LOCATION_LENGTH)),
  amountCents: fc.oneof(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: MAX_AMOUNT_CENTS })),
  merchantName: fc.string({ minLength: 0, maxLength: 40, unit: 'grapheme' }),
  merchantCity: fc.constantFrom('São Paulo', 'Rio de Janeiro', 'Belo Horizonte', 'Florianópolis', 'São João del-Rei', 'Ji-Paraná', 'Itu'),
});

function nearestNeighbour(src: PNG, size: number): PNG {
  const out = new PNG({ width: size, height: size });
  for (let y = 0; y < size; y++) {
    const sy = Math.floor((y * src.height) / size);
    for (let x = 0; x < size; x++) {
      const sx = Math.floor((x * src.width) / size);
      src.data.copy(out.data, (y * size + x) * 4, (sy * src.width + sx) * 4, (sy * src.width + sx) * 4 + 4);
    }
  }
  return out;
}

function jsQrDecode(png: PNG): string | undefined {
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

/** zbarimg over many files at once: one line per file it decoded, in file order. */
async function zbarDecode(files: string[]): Promise<string[]> {
  const { stdout } = await runFile(ZBARIMG, ['--raw', '-q', '-Sdisable', '-Sqrcode.enable', ...files], { maxBuffer: 16 << 20 }).catch(
    (error: { stdout?: string; code?: number }) => {
      // Exit status 4: some image had no symbol; the comparison below names it.
      if (error.code === 4 && error.stdout !== undefined) return { stdout: error.stdout };
      throw error;
    },
  );
  return stdout.split('\n').slice(0, -1);
}

describe('qrCodePng', () => {
  let dir = '';
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-image-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('zbarimg is installed', () => {
    assert.ok(fs.existsSync(ZBARIMG), `${ZBARIMG} is missing: apt-get install zbar-tools (or set ZBARIMG_PATH)`);
  });

  test(`${CODES} random BR Codes decode to exactly themselves with jsQR and zbar, native and at ${PAGE_PX} px`, async (t) => {
    const codes = fc.sample(inputArb, { numRuns: CODES, seed: 20_240_611 }).map((input) => buildDynamicBrCode(input));
    const files: string[] = [];
    const sizes: number[] = [];
    codes.forEach((code, i) => {
      const bytes = qrCodePng(code);
      sizes.push(bytes.length);
      assert.equal(bytes.readUInt8(24), 1, 'IHDR bit depth 1');
      assert.equal(bytes.readUInt8(25), 0, 'IHDR colour type 0 (grayscale)');
      assert.ok(bytes.length < MAX_PNG_BYTES, `PNG of ${bytes.length} bytes for a ${code.length}-char code`);
      const png = PNG.sync.read(bytes);
      assert.equal(jsQrDecode(png), code, `jsQR, native size, code ${i}`);
      const scaled = nearestNeighbour(png, PAGE_PX);
      assert.equal(jsQrDecode(scaled), code, `jsQR, ${PAGE_PX} px, code ${i}`);
      const native = path.join(dir, `${i}.png`);
      fs.writeFileSync(native, bytes);
      const page = path.join(dir, `${i}-${PAGE_PX}.png`);
      fs.writeFileSync(page, PNG.sync.write(scaled));
      files.push(native, page);
    });
    const decoded = await zbarDecode(files);
    if (decoded.length !== files.length || decoded.some((text, i) => text !== codes[i >> 1])) {
      // Name the first file zbar misread or missed.
      for (const [i, file] of files.entries()) assert.deepEqual(await zbarDecode([file]), [codes[i >> 1]], `zbarimg ${path.basename(file)}`);
    }
    assert.equal(decoded.length, files.length);
    sizes.sort((a, b) => a - b);
    t.diagnostic(`PNG bytes: min ${sizes[0]}, median ${sizes[sizes.length >> 1]}, max ${sizes.at(-1)}`);
  });

  test(`the one-pass segmentation of ${CODES * 4} random BR Codes keeps the QR version of qrcode's shortest-path search (99 % at least; one more at most)`, (t) => {
    const codes = fc.sample(inputArb, { numRuns: CODES * 4, seed: 20_261_124 }).map((input) => buildDynamicBrCode(input));
    let larger = 0;
    for (const code of codes) {
      const segments = brCodeSegments(code);
      const spelled = segments.map((s) => (typeof s.data === 'object' ? Buffer.from(s.data).toString('utf8') : String(s.data))).join('');
      assert.equal(spelled, code, 'the segments spell the code');
      const ours = QRCode.create(segments, { errorCorrectionLevel: 'M' }).version;
      const searched = QRCode.create(code, { errorCorrectionLevel: 'M' }).version;
      assert.ok(ours <= searched + 1, `version ${ours} against ${searched} for ${code}`);
      if (ours > searched) larger++;
    }
    t.diagnostic(`${larger} of ${codes.length} one version larger`);
    assert.ok(larger <= codes.length / 100, `${larger} codes one version larger`);
  });

  test('base64 form is the same PNG, without a data: prefix', async () => {
    const code = buildDynamicBrCode({ locationUrl: 'pix.example.com/qr/v2/cobv_1', amountCents: 100, merchantName: 'Loja', merchantCity: 'Itu' });
    const base64 = qrCodePngBase64(code);
    assert.match(base64, /^[A-Za-z0-9+/]+={0,2}$/);
    assert.deepEqual(Buffer.from(base64, 'base64'), qrCodePng(code));
  });

  test('the PNG of a code is the same bytes from release to release (replays draw it again)', () => {
    // An Idempotency-Key's stored response leaves the image out and a replay draws it again
    // (transactions/view.ts, storedViewForm), so a replay is the first answer byte for byte only while
    // these bytes stay the same. A change here (our PNG writer, qr-matrix, or the zlib Node bundles)
    // makes replays of keys stored in the 24 h before the release differ in the image's bytes: it needs
    // the former encoder kept for those replays, not a new hash here.
    const pinned = [
      [{ locationUrl: 'pix.example.com/qr/v2/cobv/trx_0123456789abcdef', amountCents: 10000, merchantName: 'Loja Teste Ltda', merchantCity: 'São Paulo' }, '0d907042359b309e008c357ecade9cd07115a32f9c13617a6939893fa72bdcdd'],
      [{ locationUrl: 'qr.psp.com.br/v2/9d36b84fc70b478fb95c12729b90ca25', amountCents: 123456789, merchantName: 'Padaria Pão de Açúcar', merchantCity: 'Florianópolis' }, '218a16ec7acac7c14f1e6a0db4bc33358fc8fdd9b45f8a2aace1fa82e464452d'],
    ] as const;
    for (const [input, sha256] of pinned) assert.equal(createHash('sha256').update(qrCodePng(buildDynamicBrCode(input))).digest('hex'), sha256);
  });
});
