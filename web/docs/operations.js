/*
 * The operations of the document, grouped by tag in the document's order:
 * for each, its method and path, summary and description, parameters,
 * request body, responses with their schemas, and its "try it". Why a
 * module: the whole reference is re-rendered when the language changes.
 */
import { clear, node } from '../shared/dom.js';
import { inline } from './guide.js';
import { t } from './i18n.js';
import { jsonMedia, resolve, schemaTree, typeLine } from './schema.js';
import { tryPanel } from './try-it.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operation as {method, path, operation, tag}, grouped by tag (the document's `tags` order first). */
function operationsByTag(doc) {
  const groups = new Map();
  for (const tag of doc.tags || []) groups.set(tag.name, []);
  for (const [path, item] of Object.entries(doc.paths || {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = (operation.tags && operation.tags[0]) || 'API';
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag).push({ method, path, operation, params: [...(item.parameters || []), ...(operation.parameters || [])].map((p) => resolve(doc, p)) });
    }
  }
  return [...groups].filter(([, ops]) => ops.length > 0);
}

const anchorOf = (method, path) => 'op-' + method + '-' + path.replace(/[^a-zA-Z0-9]+/g, '-').replace(/^-|-$/g, '');

function section(title, body) {
  const el = node('div', null, 'op-section');
  el.appendChild(node('h4', title));
  el.appendChild(body);
  return el;
}

function paramList(doc, params) {
  const list = node('ul', null, 'schema');
  const where = { path: t('inPath'), query: t('inQuery'), header: t('inHeader') };
  for (const p of params) {
    const item = node('li');
    item.appendChild(node('code', p.name, 'prop'));
    item.appendChild(node('span', ' ' + (where[p.in] || p.in) + ' · ' + typeLine(doc, p.schema || {}) + ' · ' + (p.required ? t('required') : t('optional')), 'type'));
    if (p.description) item.appendChild(node('div', p.description, 'muted small'));
    list.appendChild(item);
  }
  return list;
}

function mediaSchema(content) {
  const media = jsonMedia(content);
  return media && media.schema;
}

function responseList(doc, responses) {
  const list = node('div');
  for (const [status, raw] of Object.entries(responses || {})) {
    const response = resolve(doc, raw);
    const row = node('details', null, 'response');
    const summary = node('summary');
    summary.appendChild(node('span', status, 'status status-' + status[0]));
    summary.appendChild(node('span', ' ' + (response.description || '')));
    row.appendChild(summary);
    const schema = mediaSchema(response.content);
    if (schema) row.appendChild(schemaTree(doc, schema));
    list.appendChild(row);
  }
  return list;
}

function renderOperation(doc, { method, path, operation, params }) {
  const el = node('article', null, 'op panel');
  el.id = anchorOf(method, path);
  const head = node('h3', null, 'op-head');
  head.appendChild(node('span', method.toUpperCase(), 'method method-' + method));
  head.appendChild(node('code', path, 'path'));
  if (operation.summary) head.appendChild(node('span', operation.summary, 'summary'));
  el.appendChild(head);
  if (operation.description) el.appendChild(inline(node('p', null, 'muted'), operation.description));
  if (Array.isArray(operation.security) && operation.security.length === 0) el.appendChild(node('p', t('noAuth'), 'badge'));
  if (params.length > 0) el.appendChild(section(t('parameters'), paramList(doc, params)));
  const body = operation.requestBody && mediaSchema(resolve(doc, operation.requestBody).content);
  if (body) el.appendChild(section(t('requestBody') + (operation.requestBody.required ? '' : ' (' + t('optional') + ')'), schemaTree(doc, body)));
  el.appendChild(section(t('responses'), responseList(doc, operation.responses)));
  const toggle = node('button', t('tryIt'), 'secondary try-toggle');
  toggle.type = 'button';
  let panel = null;
  toggle.addEventListener('click', () => {
    if (!panel) {
      panel = tryPanel(method, path, operation, params);
      el.appendChild(panel);
    } else {
      panel.hidden = !panel.hidden;
    }
    toggle.textContent = panel.hidden ? t('tryIt') : t('tryClose');
  });
  el.appendChild(toggle);
  return el;
}

/** The table of contents and every operation, then the named schemas. */
export function renderReference(doc, toc, container) {
  clear(toc);
  clear(container);
  toc.appendChild(node('h2', t('tocTitle')));
  for (const [tag, ops] of operationsByTag(doc)) {
    const group = node('section', null, 'tag');
    group.appendChild(node('h2', tag));
    const tocList = node('ul');
    toc.appendChild(node('h3', tag));
    for (const op of ops) {
      group.appendChild(renderOperation(doc, op));
      const link = node('a', op.method.toUpperCase() + ' ' + op.path);
      link.href = '#' + anchorOf(op.method, op.path);
      const li = node('li');
      li.appendChild(link);
      tocList.appendChild(li);
    }
    toc.appendChild(tocList);
    container.appendChild(group);
  }
  const schemas = (doc.components && doc.components.schemas) || {};
  if (Object.keys(schemas).length > 0) {
    const group = node('section', null, 'tag');
    group.appendChild(node('h2', t('schemas')));
    for (const [name, schema] of Object.entries(schemas)) {
      const row = node('details', null, 'panel named-schema');
      row.id = 'schema-' + name;
      row.appendChild(node('summary', schema.title || name));
      row.appendChild(schemaTree(doc, schema));
      group.appendChild(row);
    }
    container.appendChild(group);
  }
}
