/**
 * A list page's filters live in its address (so a reload, Back, or a shared
 * address shows the same list) and are the API's query as they are: the
 * period's days as typed (YYYY-MM-DD, São Paulo dates, both included), a
 * recipient's CPF or CNPJ without its punctuation.
 */

type Filters = Record<string, string>;

export function filtersFrom(search: URLSearchParams, names: readonly string[]): Filters {
  const filters: Filters = {};
  for (const name of names) {
    const value = search.get(name);
    if (value) filters[name] = value;
  }
  return filters;
}

const TAX_ID_PUNCTUATION = /[.\-/\s]/g;

/** The filters as the API takes them. */
export function apiFilters(filters: Filters): Filters {
  const out: Filters = { ...filters };
  if (out.recipient) out.recipient = out.recipient.replace(TAX_ID_PUNCTUATION, '').toUpperCase();
  return out;
}

/** The values of a filter form's named fields, blanks left out. */
export function formFilters(form: HTMLFormElement, names: readonly string[]): Filters {
  const data = new FormData(form);
  const filters: Filters = {};
  for (const name of names) {
    const value = String(data.get(name) ?? '').trim();
    if (value) filters[name] = value;
  }
  return filters;
}
