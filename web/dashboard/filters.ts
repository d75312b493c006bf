/**
 * A list page's filters live in its address (so a reload, Back, or a shared
 * address shows the same list) and become the API's query: the days typed
 * (YYYY-MM-DD, São Paulo) become instants, `from` the day's start and `to`
 * its end.
 */
import { dayBound } from './format.js';

type Filters = Record<string, string>;

export function filtersFrom(search: URLSearchParams, names: readonly string[]): Filters {
  const filters: Filters = {};
  for (const name of names) {
    const value = search.get(name);
    if (value) filters[name] = value;
  }
  return filters;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filters as the API takes them (the days as instants). */
export function apiFilters(filters: Filters): Filters {
  const out: Filters = { ...filters };
  if (out.from && DAY.test(out.from)) out.from = dayBound(out.from, false);
  if (out.to && DAY.test(out.to)) out.to = dayBound(out.to, true);
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
