/*
 * What "try it" sends: the operation's own example bodies when the document
 * has some (a choice when there are several), otherwise a built-in example
 * for the main sandbox operations, so the first request succeeds: a Pix
 * intent, then its confirmation (no body;
 * its {id} is the intent just created, see try-it.js), then the listing.
 */
import { jsonMedia } from './schema.js';

/** A buyer the sandbox accepts: a CPF with valid check digits, an address for boleto. */
const BUYER = {
  name: 'Maria da Silva',
  document: '52998224725',
  email: 'maria@example.com',
  address: { street: 'Rua Augusta', number: '100', neighborhood: 'Consolação', city: 'São Paulo', state: 'SP', zipCode: '01304000' },
};

/** The built-in body of "METHOD path" (the document's path, with its {placeholders}), or undefined. */
function builtIn(key) {
  if (key !== 'POST /v2/payment-intents') return undefined;
  // Not confirmed here, so that "try it" on confirm has an intent to confirm (its id is filled in).
  return { amountCents: 1990, paymentMethod: 'PIX', referenceId: 'docs-' + Date.now().toString(36), buyer: BUYER };
}

/** The JSON media type's examples as [name, value]: `example`, or each of `examples`. */
function documented(media) {
  if (!media) return [];
  if (media.example !== undefined) return [['example', media.example]];
  return Object.entries(media.examples || {}).filter(([, e]) => e && e.value !== undefined).map(([name, e]) => [e.summary || name, e.value]);
}

/**
 * The bodies "try it" offers, as [name, text, value]: the document's
 * examples, else a built-in one, else '' (or '{}' for a required body),
 * which has no value.
 */
export function exampleBodies(method, path, operation) {
  const found = documented(jsonMedia(operation.requestBody && operation.requestBody.content));
  const builtin = builtIn(method.toUpperCase() + ' ' + path);
  if (found.length === 0 && builtin !== undefined) found.push(['example', builtin]);
  if (found.length > 0) return found.map(([name, value]) => [name, JSON.stringify(value, null, 2), value]);
  return [['', operation.requestBody && operation.requestBody.required ? '{}' : '']];
}

/** A parameter's example value, or ''. */
export function exampleParam(param) {
  if (param.example !== undefined) return String(param.example);
  const first = param.examples && Object.values(param.examples)[0];
  if (first && first.value !== undefined) return String(first.value);
  if (param.schema && param.schema.example !== undefined) return String(param.schema.example);
  return '';
}
