/** A table in a scrollable, focusable wrapper, its column headers from a list (false leaves a column out). */
import type { ComponentChildren } from 'preact';

/** A header's text, or [text, 'num'] for a right-aligned number column. */
export type Column = string | [string, 'num'] | false;

export function Table({ columns, rowsLink, children }: { columns: Column[]; rowsLink?: boolean; children: ComponentChildren }) {
  return (
    <div class="table-wrap" tabIndex={0}>
      <table class={rowsLink ? 'rows-link' : undefined}>
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
