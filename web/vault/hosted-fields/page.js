/*
 * Starts the hosted fields page: reads the fragment, applies locale and
 * style, wires the fields, the form and the parent's commands, then says
 * "ready". Why a module: it is the only code that runs on load, and it holds
 * the page's state (one object passed to fields.js, typing.js, submit.js).
 */
import { FIELDS, refresh, setStatus } from './fields.js';
import { parseFragment, sanitizeStyle } from './fragment.js';
import { createPoster, framedByDeclaredOrigin, listenToParent, watchHeight } from './messaging.js';
import { submit } from './submit.js';
import { TEXT } from './texts.js';
import { onInput } from './typing.js';

export function startPage() {
  const $ = (id) => document.getElementById(id);
  const params = parseFragment(location.hash);
  if (params.ok && !framedByDeclaredOrigin(params)) params.ok = false;
  const page = {
    params,
    T: TEXT[params.locale],
    post: createPoster(params),
    form: $('form'),
    button: $('submit'),
    statusEl: $('status'),
    brandEl: $('number-brand'),
    inputs: {},
    touched: {},
    lastSent: {},
    previous: { number: '', expiry: '' },
    busy: false,
    result: null, // {token, brand, last4} once issued
    locked: false,
  };
  const { T, post, form, button } = page;

  document.documentElement.lang = params.locale;
  document.title = T.title;
  const vars = sanitizeStyle(params.style);
  for (const name in vars) document.documentElement.style.setProperty(name, vars[name]);
  if (params.style.theme === 'dark') document.documentElement.className = 'dark';

  FIELDS.forEach((f) => {
    const input = $(f);
    page.inputs[f] = input;
    $(f + '-label').textContent = T[f];
    const ph = params.placeholders[f];
    input.placeholder = typeof ph === 'string' && ph.length <= 60 ? ph : T.ph[f];
    input.addEventListener('input', (ev) => onInput(page, f, ev));
    input.addEventListener('focus', () => post({ type: 'focus', field: f }));
    input.addEventListener('blur', () => {
      page.touched[f] = true;
      refresh(page, f);
      post({ type: 'blur', field: f });
    });
  });
  // As text, never markup: the seller's label is shown as typed.
  button.textContent = params.submitLabel || T.submit;
  button.hidden = params.hide;

  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    // With the seller's own button (hide), Enter in a field does not submit:
    // the seller decides when tokenize() runs.
    if (!params.hide) submit(page);
  });
  listenToParent(params, {
    tokenize: () => submit(page),
    focus: () => {
      if (page.locked) return;
      window.focus();
      page.inputs.number.focus();
    },
  });
  const reportHeight = watchHeight(form, post);

  if (!params.ok) {
    FIELDS.forEach((f) => {
      page.inputs[f].disabled = true;
    });
    button.disabled = true;
    setStatus(page, T.code.CONFIG, true);
    return;
  }
  post({ type: 'ready' });
  reportHeight();
}
