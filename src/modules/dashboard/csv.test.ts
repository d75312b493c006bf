import assert from 'node:assert/strict';
import { test } from 'node:test';
import { csvCell, csvLine, csvStream } from './csv.js';

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

test('a text cell that a spreadsheet would run as a formula is prefixed with a quote and quoted; numbers are left alone', () => {
  for (const start of ['=', '+', '-', '@', '\t', '\r']) {
    assert.equal(csvCell(`${start}SUM(A1)`), `"'${start}SUM(A1)"`, JSON.stringify(start));
  }
  assert.equal(csvCell('=HYPERLINK("http://x","y")'), `"'=HYPERLINK(""http://x"",""y"")"`);
  assert.equal(csvCell(-500), '-500');
  assert.equal(csvCell('a=b'), 'a=b');
});

test('a stream is the header, then every batch in order, in UTF-8', async () => {
  async function* batches() {
    yield [{ n: 'Açaí' }, { n: '=1+1' }];
    yield [{ n: 'x' }];
  }
  let text = '';
  for await (const chunk of csvStream(['name'], batches(), (r) => [r.n])) text += Buffer.isBuffer(chunk) ? chunk.toString('utf8') : chunk;
  assert.equal(text, `name\r\nAçaí\r\n"'=1+1"\r\nx\r\n`);
});
