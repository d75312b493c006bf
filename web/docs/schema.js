/*
 * A JSON Schema of the document as a readable tree: each property with its
 * type, whether it is required, its constraints and description, nested
 * objects and arrays indented, `$ref`s followed (once per path, so a
 * recursive schema ends). Why a module: bodies, responses and the named
 * schemas are all shown this way.
 */
import { node } from '../shared/dom.js';
import { t } from './i18n.js';

/** The schema a local `$ref` ("#/components/schemas/X") points at, or the schema itself. */
export function resolve(doc, schema) {
  let s = schema;
  for (let hops = 0; s && s.$ref && hops < 20; hops++) {
    s = s.$ref.replace(/^#\//, '').split('/').reduce((at, key) => (at ? at[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), doc);
  }
  return s || {};
}

/** The media type of a `content` map the page shows and "try it" sends: JSON, else the first one. */
export function jsonMedia(content) {
  return content && (content['application/json'] || Object.values(content)[0]);
}

const refName = (schema) => (schema && schema.$ref ? schema.$ref.split('/').pop() : '');

/** "string (email) · ≤ 255" and the like: a schema's type and constraints on one line. */
export function typeLine(doc, schema) {
  const s = resolve(doc, schema);
  const variants = s.anyOf || s.oneOf;
  if (variants) return variants.map((v) => typeLine(doc, v)).join(' | ');
  let type = Array.isArray(s.type) ? s.type.join(' | ') : s.type || (s.properties ? 'object' : s.enum ? 'enum' : s.const !== undefined ? 'const' : 'any');
  if (type === 'array') type = 'array<' + typeLine(doc, s.items || {}) + '>';
  const parts = [refName(schema) ? refName(schema) + ': ' + type : type];
  if (s.format) parts.push(s.format);
  if (s.enum) parts.push(t('oneOf') + ' ' + s.enum.join(', '));
  if (s.const !== undefined) parts.push('= ' + JSON.stringify(s.const));
  if (s.minimum !== undefined) parts.push('≥ ' + s.minimum);
  if (s.maximum !== undefined) parts.push('≤ ' + s.maximum);
  if (s.minLength !== undefined) parts.push(t('length') + ' ≥ ' + s.minLength);
  if (s.maxLength !== undefined) parts.push(t('length') + ' ≤ ' + s.maxLength);
  if (s.pattern) parts.push('/' + s.pattern + '/');
  if (s.maxItems !== undefined) parts.push('≤ ' + s.maxItems + ' ' + t('items'));
  if (s.default !== undefined) parts.push(t('defaultValue') + ' ' + JSON.stringify(s.default));
  return parts.join(' · ');
}

/** The properties of an object schema (and of the objects and arrays of objects inside it), as nested lists. */
export function schemaTree(doc, schema, seen = new Set()) {
  const s = resolve(doc, schema);
  const target = s.type === 'array' ? resolve(doc, s.items || {}) : s;
  const list = node('ul', null, 'schema');
  if (!target.properties) {
    list.appendChild(node('li', typeLine(doc, schema), 'type'));
    return list;
  }
  const required = new Set(target.required || []);
  for (const [name, prop] of Object.entries(target.properties)) {
    const item = node('li');
    item.appendChild(node('code', name, 'prop'));
    item.appendChild(node('span', ' ' + typeLine(doc, prop), 'type'));
    item.appendChild(node('span', required.has(name) ? ' · ' + t('required') : '', 'req'));
    const inner = resolve(doc, prop);
    if (inner.description) item.appendChild(node('div', inner.description, 'muted small'));
    const ref = prop.$ref || (prop.items && prop.items.$ref) || '';
    const nested = inner.type === 'array' ? resolve(doc, inner.items || {}) : inner;
    if (nested.properties && !(ref && seen.has(ref))) item.appendChild(schemaTree(doc, prop, new Set([...seen, ref])));
    list.appendChild(item);
  }
  return list;
}
