/*
 * Four small DOM helpers, shared by the demo checkout and the payment link
 * page. Why a module: every view builds nodes with textContent only (never
 * HTML strings), and these keep that short.
 */

export function $(id) {
  return document.getElementById(id);
}

/** Shows or hides an element (or the element with that id). */
export function show(el, visible) {
  if (typeof el === 'string') el = $(el);
  el.hidden = !visible;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
}

/** A new element with text (as text, never HTML) and a class. */
export function node(tag, text, className) {
  const el = document.createElement(tag);
  if (text !== undefined && text !== null) el.textContent = text;
  if (className) el.className = className;
  return el;
}
