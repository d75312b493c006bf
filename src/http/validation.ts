/**
 * Request validation. Bodies are validated strictly: no type coercion ("100"
 * is not an amount) and unknown fields are errors, not silently dropped (they
 * are usually typos). Query strings, path params and headers are text on the
 * wire, so their validator coerces "20" to 20. Every failing field is reported
 * in `details` with a dotted path (`buyer.email`, `splitRules[1].percentage`),
 * up to MAX_DETAILS fields: Ajv reports every error (allErrors), one per
 * unknown key of a 1 MiB body, but only the first fields are described.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import * as ajvFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { MAX_DETAILS, validationFailure, type ErrorDetail } from '../lib/domain-error.js';
import { PROBLEMS } from '../lib/i18n/messages/problems.js';
import type { Text } from '../lib/i18n/text.js';
import { TAX_ID_PATTERN } from '../lib/tax-id.js';
import { AppError } from './errors.js';

// ajv-formats is CommonJS; under ESM its function arrives as the `default` export.
const addFormats = ajvFormats.default as unknown as (ajv: Ajv, formats: string[]) => Ajv;

function makeAjv(coerce: boolean): Ajv {
  // messages: false: Ajv's English is never shown (describe words each keyword), so it is not built for each error.
  const ajv = new Ajv({ allErrors: true, messages: false, coerceTypes: coerce ? 'array' : false, removeAdditional: false, useDefaults: true, strict: false });
  addFormats(ajv, ['email', 'date', 'date-time', 'uri']);
  return ajv;
}

const strictAjv = makeAjv(false);
const coercingAjv = makeAjv(true);

function fieldPath(instancePath: string, prefix: string): string {
  let out = prefix;
  for (const segment of instancePath.split('/').slice(1)) {
    const key = segment.replace(/~1/g, '/').replace(/~0/g, '~');
    out = /^\d+$/.test(key) ? `${out}[${key}]` : out ? `${out}.${key}` : key;
  }
  return out;
}

function describe(error: ErrorObject): Text {
  const limit = error.params.limit as number;
  switch (error.keyword) {
    case 'required':
      return PROBLEMS.required;
    case 'additionalProperties':
      return PROBLEMS.unknownField;
    case 'type':
      return PROBLEMS.mustBe({ what: String(error.params.type) });
    case 'enum':
      return PROBLEMS.oneOf({ values: (error.params.allowedValues as unknown[]).join(', ') });
    case 'maxLength':
      return PROBLEMS.maxLength({ limit });
    case 'minLength':
      return PROBLEMS.minLength({ limit });
    case 'maximum':
      return PROBLEMS.maximum({ limit });
    case 'minimum':
      return PROBLEMS.minimum({ limit });
    case 'format':
      return PROBLEMS.format({ format: String(error.params.format) });
    case 'pattern':
      // A regular expression tells a client little; the tax id's shape is said in words.
      return error.params.pattern === TAX_ID_PATTERN ? PROBLEMS.taxIdShape : PROBLEMS.pattern({ pattern: String(error.params.pattern) });
    case 'minItems':
      return PROBLEMS.minItems({ limit });
    case 'maxItems':
      return PROBLEMS.maxItems({ limit });
    case 'uniqueItems':
      return PROBLEMS.uniqueItems;
    case 'maxProperties':
      return PROBLEMS.maxProperties({ limit });
    case 'propertyNames':
      return PROBLEMS.propertyNames;
    case 'anyOf':
    case 'oneOf':
    case 'const':
      return PROBLEMS.noAllowedForm;
    default:
      // Every keyword the schemas use is worded above; Ajv's own English is never shown.
      return PROBLEMS.invalid;
  }
}

/** Turns Ajv errors into details, one per field (the first message wins), for the first MAX_DETAILS fields. */
function toDetails(errors: ErrorObject[], part: string): ErrorDetail[] {
  const byField = new Map<string, Text>();
  for (const error of errors) {
    if (byField.size === MAX_DETAILS) break;
    let field = fieldPath(error.instancePath, '');
    if (error.keyword === 'required') field = fieldPath(`${error.instancePath}/${String(error.params.missingProperty)}`, '');
    if (error.keyword === 'additionalProperties') field = fieldPath(`${error.instancePath}/${String(error.params.additionalProperty)}`, '');
    if (part === 'headers') field = field.replace(/^idempotency-key$/, 'Idempotency-Key');
    if (!field) field = part === 'body' ? 'body' : part;
    if (!byField.has(field)) byField.set(field, describe(error));
  }
  return [...byField].map(([field, message]) => ({ field, message }));
}


const compiled = { strict: new WeakMap<object, ValidateFunction>(), coercing: new WeakMap<object, ValidateFunction>() };

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const [ajv, cache] = httpPart === 'body' ? [strictAjv, compiled.strict] : [coercingAjv, compiled.coercing];
  let validate = cache.get(schema as object);
  if (!validate) {
    validate = ajv.compile(schema as object);
    cache.set(schema as object, validate);
  }
  const fn = validate;
  return (data: unknown) => {
    if (fn(data)) return { value: data };
    return { error: new AppError(validationFailure(toDetails(fn.errors ?? [], httpPart ?? 'body'))) };
  };
};
