/*
 * "Try it": one operation sent from the page to this server with the
 * user's sandbox key (kept in sessionStorage, never elsewhere), its path and
 * query parameters filled in, the example body editable, a fresh
 * Idempotency-Key on every send, and the answer shown as it came.
 */
import { $, node, show } from '../shared/dom.js';
import { exampleBodies, exampleParam } from './examples.js';
import { state, t } from './i18n.js';

const KEY_STORAGE = 'svc-docs-key';

export function storedKey() {
  try {
    return window.sessionStorage.getItem(KEY_STORAGE) || '';
  } catch {
    return '';
  }
}

export function storeKey(key) {
  try {
    if (key) window.sessionStorage.setItem(KEY_STORAGE, key);
    else window.sessionStorage.removeItem(KEY_STORAGE);
  } catch {
    /* storage unavailable: the key lives in the field only */
  }
}

/** The id of the last resource created by "try it", by collection path ("/v2/payment-intents"): it fills the {id} of that collection's operations. */
const created = new Map();

function paramValue(path, param) {
  const collection = path.split('/{' + param.name + '}')[0];
  return (param.in === 'path' && collection !== path && created.get(collection)) || exampleParam(param);
}

function newKey() {
  return typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : 'docs-' + Date.now() + '-' + Math.random().toString(36).slice(2);
}

function inputRow(labelText, value, className) {
  const label = node('label', null, 'try-row');
  label.appendChild(node('span', labelText, 'try-label'));
  const input = node('input', null, className);
  input.value = value;
  input.spellcheck = false;
  label.appendChild(input);
  return { label, input };
}

/** The URL of the request: path parameters substituted, query parameters that have a value appended. */
function requestUrl(path, inputs) {
  let url = path;
  const query = new URLSearchParams();
  for (const { param, input } of inputs) {
    const value = input.value.trim();
    if (param.in === 'path') url = url.replace('{' + param.name + '}', encodeURIComponent(value));
    else if (param.in === 'query' && value !== '') query.set(param.name, value);
  }
  const qs = query.toString();
  return qs ? url + '?' + qs : url;
}

async function send(method, path, operation, inputs, bodyArea, output, button) {
  const key = $('api-key').value.trim();
  output.textContent = '';
  show(output, true);
  if (operation.security === undefined || operation.security.length > 0) {
    if (!key) {
      output.textContent = t('needKey');
      return;
    }
  }
  const headers = { accept: 'application/json', 'accept-language': state.locale };
  if (key) headers.authorization = 'Bearer ' + key;
  let body;
  if (bodyArea && bodyArea.value.trim() !== '') {
    try {
      body = JSON.stringify(JSON.parse(bodyArea.value));
    } catch (e) {
      output.textContent = t('badJson', { message: e.message });
      return;
    }
    headers['content-type'] = 'application/json';
  }
  if (method !== 'get') headers['idempotency-key'] = newKey();
  button.disabled = true;
  button.textContent = t('sending');
  try {
    const res = await fetch(requestUrl(path, inputs), { method: method.toUpperCase(), headers, body, credentials: 'omit' });
    const text = await res.text();
    let json;
    let shown = text;
    try {
      json = JSON.parse(text);
      shown = JSON.stringify(json, null, 2);
    } catch {
      /* not JSON: shown as it came */
    }
    output.dataset.status = String(res.status);
    const id = res.ok && method === 'post' && /^\{/.test(text) && json ? json.id : undefined;
    if (typeof id === 'string') created.set(path, id);
    output.textContent = res.status + ' ' + res.statusText + '\n\n' + shown;
  } catch (e) {
    output.textContent = t('networkError', { message: e.message });
  } finally {
    button.disabled = false;
    button.textContent = t('send');
  }
}

/** The "try it" panel of one operation, built when first opened. */
export function tryPanel(method, path, operation, params) {
  const panel = node('div', null, 'try');
  const inputs = [];
  for (const param of params) {
    if (param.in !== 'path' && param.in !== 'query') continue;
    const { label, input } = inputRow(param.name + (param.required ? ' *' : ''), paramValue(path, param), 'try-param');
    input.name = param.name;
    inputs.push({ param, input });
    panel.appendChild(label);
  }
  let bodyArea = null;
  const examples = exampleBodies(method, path, operation);
  const example = examples[0][1];
  if (operation.requestBody || example) {
    panel.appendChild(node('div', t('bodyLabel'), 'try-label'));
    bodyArea = node('textarea', null, 'try-body');
    const fill = (text) => {
      bodyArea.value = text;
      bodyArea.rows = Math.min(20, Math.max(4, text.split('\n').length + 1));
    };
    if (examples.length > 1) {
      // Several documented examples (Pix, card, boleto): one is chosen, the first by default.
      const select = node('select', null, 'try-example');
      select.setAttribute('aria-label', t('exampleLabel'));
      examples.forEach(([name, , value], i) => {
        const method = value.paymentMethod;
        // An example the document does not name (example1, example2…) is named in the page's language.
        const label = /^example\d*$/.test(name) ? t('exampleLabel') + ' ' + (i + 1) : name;
        const option = node('option', method ? label + ' · ' + method : label);
        option.value = String(i);
        select.appendChild(option);
      });
      select.addEventListener('change', () => fill(examples[Number(select.value)][1]));
      panel.appendChild(select);
    }
    fill(example);
    bodyArea.spellcheck = false;
    panel.appendChild(bodyArea);
  }
  if (method !== 'get') panel.appendChild(node('p', t('idempotencyNote'), 'muted small'));
  const button = node('button', t('send'), 'primary try-send');
  button.type = 'button';
  const output = node('pre', null, 'try-output');
  output.hidden = true;
  button.addEventListener('click', () => send(method, path, operation, inputs, bodyArea, output, button));
  panel.appendChild(button);
  panel.appendChild(output);
  return panel;
}
