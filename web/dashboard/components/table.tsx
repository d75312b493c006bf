/**
 * A table in a scrollable, focusable wrapper, its column headers from a list
 * (false leaves a column out). `stacked`: on a phone each row is a block of
 * labelled values instead (its cells carry their labels: receivables.tsx).
 */
import type { ComponentChildren } from 'preact';

/** A header's text, or [text, 'num'] for a right-aligned number column. */
export type Column = string | [string, 'num'] | false;

export function Table({ columns, rowsLink, stacked, children }: { columns: Column[]; rowsLink?: boolean; stacked?: boolean; children: ComponentChildren }) {
  const classes = [rowsLink ? 'rows-link' : '', stacked ? 'stacked' : ''].filter(Boolean).join(' ');
  return (
    <div class="table-wrap" tabIndex={0}>
      <table class={classes || undefined}>
        <thead>
          <tr>
            {columns.map((column, i) =>
              column === false ? null : typeof column === 'string' ? (
                <th key={i} scope="col">
                  {column}
                </th>
              ) : (
                <th key={i} scope="col" class="num">
                  {column[0]}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
