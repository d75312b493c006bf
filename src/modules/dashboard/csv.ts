/**
 * CSV as RFC 4180 writes it (CRLF line ends, a field holding a comma, a
 * quote, CR or LF quoted, quotes doubled), UTF-8, with OWASP's advice against
 * CSV injection: a text cell beginning with `=`, `+`, `-`, `@`, a tab or a CR
 * is prefixed with a single quote, and quoted, so that a spreadsheet shows it
 * and never runs it as a formula. Numbers are the service's own integers
 * (centavos, counts) and are written as they are: a negative adjustment
 * stays a number a spreadsheet can add.
 */
import { Readable } from 'node:stream';

export type Cell = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: Cell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const neutralised = FORMULA_START.test(value);
  const text = neutralised ? `'${value}` : value;
  return neutralised || NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (cells: readonly Cell[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/**
 * A CSV document as a stream: the header row, then each batch's lines as one
 * chunk. The batches are read as the client takes the chunks (Readable.from
 * pulls the next only when the socket drains), so memory holds one batch.
 */
export function csvStream<T>(header: readonly string[], batches: AsyncIterable<T[]>, cells: (item: T) => Cell[]): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield csvLine(header);
    for await (const batch of batches) {
      let chunk = '';
      for (const item of batch) chunk += csvLine(cells(item));
      yield chunk;
    }
  }
  return Readable.from(lines(), { objectMode: false });
}
