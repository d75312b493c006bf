/**
 * What the build writes into dist/web (scripts/build-web.mjs) and the
 * service serves: classic scripts the pages' CSPs allow (no eval, no
 * Function constructor, no module syntax, no Node built-in), and an SDK that
 * stays small, since sellers load it on every checkout page.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import vm from 'node:vm';
import { gzipSync } from 'node:zlib';
import { WEB_ROOT } from '../../src/http/web-assets.js';

const SCRIPTS = ['vault/sdk.js', 'vault/hosted-fields.js', 'demo/checkout.js', 'pay/page.js'];
/** The SDK's gzipped size when it was one hand-written file (3 349 bytes): it must not grow past it. */
const SDK_GZIP_BUDGET = 3349;

const read = (file: string) => fs.readFileSync(path.join(WEB_ROOT, file), 'utf8');

describe('served browser bundles', () => {
  for (const file of SCRIPTS) {
    test(`${file} is one classic script with no eval, no Function constructor and no Node built-in`, () => {
      const code = read(file);
      assert.doesNotThrow(() => new vm.Script(code, { filename: file }), 'parses as a classic script (no import/export)');
      assert.doesNotMatch(code, /\beval\s*\(|\bnew\s+Function\s*\(|\bFunction\s*\(\s*["'`]/);
      assert.doesNotMatch(code, /\brequire\s*\(|["']node:/);
    });
  }

  test(`the SDK is at most ${SDK_GZIP_BUDGET} bytes gzipped, and names its version first`, () => {
    const code = read('vault/sdk.js');
    const size = gzipSync(code).length;
    assert.ok(size <= SDK_GZIP_BUDGET, `sdk.js is ${size} bytes gzipped`);
    assert.match(code.slice(0, 80), /SvcVault client script \d+\.\d+\.\d+/);
  });

  test('the HTML and the vault\'s CSS are served as written', () => {
    for (const file of ['vault/hosted-fields.html', 'vault/hosted-fields.css', 'demo/checkout.html', 'pay/page.html']) {
      assert.equal(read(file), fs.readFileSync(path.resolve('web', file), 'utf8'), file);
    }
  });

  test('each checkout page\'s CSS is one file: the shared look inlined, then its own rules', () => {
    for (const file of ['demo/checkout.css', 'pay/page.css']) {
      const css = read(file);
      assert.doesNotMatch(css, /@import/, `${file} needs no second request (its CSP allows only 'self' anyway)`);
      assert.match(css, /--accent: #0f766e/, `${file} carries web/shared/base.css`);
    }
    assert.match(read('demo/checkout.css'), /\.test-card/);
    assert.match(read('pay/page.css'), /\.boleto-sheet/);
  });
});
