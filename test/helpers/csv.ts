/**
 * A CSV reader as a spreadsheet reads one: RFC 4180 (quoted cells, `""` for a
 * quote, CRLF between rows) with the dialect's separator, for reading the
 * dashboard's exports back in tests.
 */
import assert from 'node:assert/strict';

export function parseCsv(text: string, separator = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === separator) {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  assert.equal(cell, '', 'the document ends with CRLF');
  return rows;
}
