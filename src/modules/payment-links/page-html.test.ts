/**
 * The hosted page's assembly: whatever the seller typed (a description, the
 * company's name) reaches the page's data island character for character,
 * `$` replacement patterns included, and nothing of it can end the island
 * or the template around it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fillTemplate } from '../../http/web-assets.js';
import { renderPage, type PageData } from './page-html.js';

/** What String.prototype.replace would expand in a replacement string, and what would end the island. */
const PATTERNS = ["AAA$'BBB", '$`', '$&', '$1', '$$', '$<x>', '</script><script>alert(1)</script>', 'a\u2028b\u2029c', '&amp;'];

const islandOf = (html: string): string[] => [...html.matchAll(/<script type="application\/json" id="page-data">(.*?)<\/script>/gs)].map((m) => m[1]!);

const link = (text: string): PageData => ({
  linkId: 'plink_01k0000000000000000000000',
  status: 'ACTIVE',
  sellerName: `Loja ${text} Ltda`,
  description: `Curso ${text} de fotografia`,
  amountCents: 15_990,
  paymentMethods: ['PIX'],
  maxInstallments: 1,
  vaultUrl: 'http://localhost:3001',
  token: 'token',
});

describe('renderPage', () => {
  const nonce = 'bm9uY2Utb2YtdGhpcy1wYWdl';
  const plain = renderPage(link('simples'), nonce);

  for (const text of PATTERNS) {
    test(`${JSON.stringify(text)} in a description and a seller's name reaches the page as typed`, () => {
      const data = link(text);
      const html = renderPage(data, nonce);
      const islands = islandOf(html);
      assert.equal(islands.length, 1, 'one data island');
      assert.deepEqual(JSON.parse(islands[0]!), data);
      assert.doesNotMatch(islands[0]!, /[<>&\u2028\u2029]/, 'nothing in the island can end it');
      // The template around the island is untouched: the same as around a plain text's.
      assert.equal(html.replace(islands[0]!, () => ''), plain.replace(islandOf(plain)[0]!, () => ''));
    });
  }

  test('the nonce is in the page\'s one script tag, and an unknown link\'s page names no id', () => {
    const html = renderPage({ status: 'NOT_FOUND' }, nonce);
    assert.equal(html.split(`<script nonce="${nonce}" src="/pay/assets/page.js" defer></script>`).length, 2);
    assert.deepEqual(JSON.parse(islandOf(html)[0]!), { status: 'NOT_FOUND' });
    assert.doesNotMatch(html, /\{\{\w+\}\}/, 'no slot left unfilled');
  });
});

describe('fillTemplate', () => {
  test('a slot without a value is a bug of ours: it throws instead of leaving the marker in the page', () => {
    assert.throws(() => fillTemplate('pay/page.html', { nonce: 'n' }), /pay\/page\.html: no value for the slot \{\{data\}\}/);
    assert.throws(() => fillTemplate('pay/page.html', { data: '{}', toString: 'x' } as unknown as Record<string, string>), /\{\{nonce\}\}/);
  });
});
