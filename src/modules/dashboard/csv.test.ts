import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseCsv } from '../../../test/helpers/csv.js';
import { csvCell, csvLine, csvStream, EXCEL, looksLikeFormula, RFC4180, type CsvDialect } from './csv.js';

test('RFC 4180: a field with a comma, a quote, CR or LF is quoted, quotes doubled; lines end in CRLF', () => {
  assert.equal(csvCell('plain'), 'plain');
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell('say "hi"'), '"say ""hi"""');
  assert.equal(csvCell('two\nlines'), '"two\nlines"');
  assert.equal(csvCell('cr\rhere'), '"cr\rhere"');
  assert.equal(csvCell(null), '');
  assert.equal(csvCell(undefined), '');
  assert.equal(csvLine(['a', 1, null, 'b,c']), 'a,1,,"b,c"\r\n');
});

test("the excel dialect: `;` separates, a field holding `;`, a quote, CR or LF is quoted, a comma is not", () => {
  assert.equal(csvLine(['a;b', 'c,d', 'say "hi"', 'two\nlines', -1230, 7], EXCEL), '"a;b";c,d;"say ""hi""";"two\nlines";-1230;7\r\n');
  assert.equal(csvCell('a,b', ';'), 'a,b');
});

test('a text cell that a spreadsheet would run as a formula is prefixed with a quote and quoted; numbers are left alone', () => {
  for (const start of ['=', '+', '-', '@', '\t', '\r']) {
    assert.equal(csvCell(`${start}SUM(A1)`), `"'${start}SUM(A1)"`, JSON.stringify(start));
    assert.equal(csvCell(`${start}SUM(A1)`, ';'), `"'${start}SUM(A1)"`, JSON.stringify(start));
  }
  assert.equal(csvCell('=HYPERLINK("http://x","y")'), `"'=HYPERLINK(""http://x"",""y"")"`);
  assert.equal(csvCell(-500), '-500');
  assert.equal(csvCell('a=b'), 'a=b');
});

test('look-alike formula starts are folded with NFKC first: full-width ＝＋－＠, small ﹦﹢﹣﹫; the text is kept as it was', () => {
  for (const start of ['＝', '＋', '－', '＠', '﹦', '﹢', '﹣', '﹫']) {
    assert.equal(csvCell(`${start}SUM(A1)`), `"'${start}SUM(A1)"`, start);
    assert.equal(csvCell(`${start}1+1`, ';'), `"'${start}1+1"`, start);
  }
  assert.equal(csvCell('＝HYPERLINK("http://x","y")'), `"'＝HYPERLINK(""http://x"",""y"")"`);
  // Letters beyond ASCII that fold to no formula start are left alone.
  for (const text of ['Ângela', 'Ｍaria', 'Çaí', '—dash', '\u2212 minus (not folded by NFKC)']) assert.equal(csvCell(text), text);
});

test('every string NFKC folds to a formula start is neutralised (property)', () => {
  const starts = fc.constantFrom('=', '+', '-', '@', '\t', '\r', '＝', '＋', '－', '＠', '﹦', '﹢', '﹣', '﹫');
  fc.assert(
    fc.property(starts, fc.string(), (start, rest) => {
      const text = start + rest;
      assert.ok(looksLikeFormula(text));
      assert.ok(csvCell(text).startsWith(`"'`));
    }),
  );
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme' }), (text) => {
      if (/^[=+\-@\t\r]/.test(text.normalize('NFKC'))) assert.ok(csvCell(text).startsWith(`"'`), JSON.stringify(text));
    }),
  );
});

test('a stream is the header, then every batch in order, in UTF-8; the excel dialect starts with the byte-order mark', async () => {
  async function* batches() {
    yield [{ n: 'Açaí' }, { n: '=1+1' }];
    yield [{ n: 'x;y' }];
  }
  const read = async (dialect: CsvDialect) => {
    const chunks: Buffer[] = [];
    for await (const chunk of csvStream(['name'], batches(), (r) => csvLine([r.n], dialect), dialect)) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    return Buffer.concat(chunks);
  };
  assert.equal((await read(RFC4180)).toString('utf8'), `name\r\nAçaí\r\n"'=1+1"\r\nx;y\r\n`);
  const excel = await read(EXCEL);
  assert.deepEqual([...excel.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  assert.equal(excel.subarray(3).toString('utf8'), `name\r\nAçaí\r\n"'=1+1"\r\n"x;y"\r\n`);
});

test('both dialects parse back to the same cells, whatever quotes, separators and line breaks they hold (property)', () => {
  const text = fc.string({ unit: fc.constantFrom('a', 'Ç', ' ', ',', ';', '"', '\r', '\n', '=', '＝', "'", '1') });
  const cell = fc.oneof(text, fc.integer({ min: -1e9, max: 1e9 }), fc.constant(null));
  fc.assert(
    fc.property(fc.constantFrom(RFC4180, EXCEL), fc.array(fc.array(cell, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 5 }), (dialect, rows) => {
      const document = rows.map((r) => csvLine(r, dialect)).join('');
      const expected = rows.map((r) => r.map((c) => (c === null ? '' : typeof c === 'number' ? String(c) : looksLikeFormula(c) ? `'${c}` : c)));
      assert.deepEqual(parseCsv(document, dialect.separator), expected);
    }),
  );
});
