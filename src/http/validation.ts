/**
 * Request validation. Bodies are validated strictly: no type coercion ("100"
 * is not an amount) and unknown fields are errors, not silently dropped (they
 * are usually typos). Query strings, path params and headers are text on the
 * wire, so their validator coerces "20" to 20. Every failing field is reported
 * in `details` with a dotted path (`buyer.email`, `splitRules[1].percentage`).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import * as ajvFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { validationFailure, type ErrorDetail } from '../lib/domain-error.js';
import { TAX_ID_PATTERN, TAX_ID_SHAPE } from '../lib/tax-id.js';
import { AppError } from './errors.js';

// ajv-formats is CommonJS; under ESM its function arrives as the `default` export.
const addFormats = ajvFormats.default as unknown as (ajv: Ajv, formats: string[]) => Ajv;

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({ allErrors: true, coerceTypes: coerce ? 'array' : false, removeAdditional: false, useDefaults: true, strict: false });
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

function describe(error: ErrorObject): string {
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known field';
    case 'type':
      return `must be ${String(error.params.type)}`;
    case 'enum':
      return `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
    case 'maxLength':
      return `must be at most ${String(error.params.limit)} characters`;
    case 'minLength':
      return `must be at least ${String(error.params.limit)} characters`;
    case 'maximum':
      return `must be at most ${String(error.params.limit)}`;
    case 'minimum':
      return `must be at least ${String(error.params.limit)}`;
    case 'format':
      return `must be a valid ${String(error.params.format)}`;
    case 'pattern':
      // A regular expression tells a client little; the tax id's shape is said in words.
      return error.params.pattern === TAX_ID_PATTERN ? `must be ${TAX_ID_SHAPE}` : `must match the pattern ${String(error.params.pattern)}`;
    case 'minItems':
      return `must have at least ${String(error.params.limit)} items`;
    case 'maxItems':
      return `must have at most ${String(error.params.limit)} items`;
    case 'uniqueItems':
      return 'must not repeat an item';
    case 'maxProperties':
      return `must have at most ${String(error.params.limit)} keys`;
    case 'propertyNames':
      return 'has a key that is not allowed';
    case 'anyOf':
    case 'oneOf':
    case 'const':
      return 'does not match any allowed form';
    default:
      // Ajv's own English would reach a Portuguese reader untranslated: every keyword the schemas use is worded above.
      return 'is invalid';
  }
}

/** Turns Ajv errors into details, one per field (the first message wins). */
function toDetails(errors: ErrorObject[], part: string): ErrorDetail[] {
  const byField = new Map<string, string>();
  for (const error of errors) {
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
