/**
 * CSV in two dialects, both quoted as RFC 4180 quotes (CRLF line ends, a field
 * holding the separator, a quote, CR or LF quoted, quotes doubled), UTF-8:
 *
 * - `rfc4180`: commas, no byte-order mark: what a program reads;
 * - `excel`: semicolons and a byte-order mark: what Excel set to Portuguese
 *   (Brazil) opens as columns, accents intact (its list separator is `;`,
 *   since `,` is its decimal separator, and without the BOM it reads the
 *   bytes as Windows-1252: "Câmara" becomes "CÃ¢mara").
 *
 * Both follow OWASP's advice against CSV injection: a text cell beginning with
 * `=`, `+`, `-`, `@`, a tab or a CR, or with a character NFKC folds into one
 * (full-width `＝＋－＠`, small `﹦﹢﹣﹫`), is prefixed with a single quote and
 * quoted, so that a spreadsheet shows it and never runs it as a formula; its
 * text is otherwise unchanged. Numbers, and the text the export writes itself
 * (an amount `-12,30`, a date: rules.ts writes those straight into the line),
 * are written as they are: a negative adjustment stays a number a spreadsheet
 * can add.
 */
import { Readable } from 'node:stream';

export type Cell = string | number | null | undefined;

export interface CsvDialect {
  readonly separator: ',' | ';';
  /** The UTF-8 byte-order mark first, for Excel. */
  readonly bom: boolean;
}

export const RFC4180: CsvDialect = { separator: ',', bom: false };
export const EXCEL: CsvDialect = { separator: ';', bom: true };

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = { ',': /[",\r\n]/, ';': /[";\r\n]/ } as const;

/** Whether a spreadsheet could take the text for a formula: its start as typed, or as NFKC folds it (only text starting beyond ASCII can fold into one). */
export const looksLikeFormula = (text: string): boolean => FORMULA_START.test(text) || (text.charCodeAt(0) > 0x7f && FORMULA_START.test(text.normalize('NFKC')));

const quoted = (text: string): string => `"${text.replaceAll('"', '""')}"`;

export function csvCell(value: Cell, separator: CsvDialect['separator'] = ','): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  if (looksLikeFormula(value)) return quoted(`'${value}`);
  return NEEDS_QUOTES[separator].test(value) ? quoted(value) : value;
}

export function csvLine(cells: readonly Cell[], dialect: CsvDialect = RFC4180): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) line += (i === 0 ? '' : dialect.separator) + csvCell(cells[i], dialect.separator);
  return `${line}\r\n`;
}

/**
 * A CSV document as a stream: the header row, then each batch's lines as one
 * chunk. The batches are read as the client takes the chunks (Readable.from
 * pulls the next only when the socket drains), so memory holds one batch.
 * `line` writes a row's line (csvLine of its cells, or a layout's own faster
 * writer, rules.ts).
 */
export function csvStream<T>(header: readonly Cell[], batches: AsyncIterable<T[]>, line: (item: T) => string, dialect: CsvDialect = RFC4180): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield (dialect.bom ? '\uFEFF' : '') + csvLine(header, dialect);
    for await (const batch of batches) {
      let chunk = '';
      for (const item of batch) chunk += line(item);
      yield chunk;
    }
  }
  return Readable.from(lines(), { objectMode: false });
}
