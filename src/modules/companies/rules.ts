/**
 * What an operator may ask of companies, keys and accounts: pure checks whose
 * messages are printed by the CLI as they are.
 */
import type { FeePlan } from '../../db/types.js';
import { DomainError } from '../../lib/domain-error.js';
import { ERRORS } from '../../lib/i18n/messages/errors.js';
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';
import type { Text } from '../../lib/i18n/text.js';
import { taxIdProblem } from '../../lib/tax-id.js';
import { SCOPES, type Scope } from './api-keys.js';

/** The highest rate an operator may set, in basis points (20 %). */
const MAX_RATE_BP = 2000;
/** The highest boleto flat fee, in centavos (R$ 200,00). */
const MAX_BOLETO_FLAT_CENTS = 20_000;

const invalid = (message: Text): DomainError => new DomainError('VALIDATION_ERROR', message);

export function checkName(name: string): DomainError | undefined {
  return name.trim() ? undefined : invalid(ERRORS.VALIDATION_ERROR.emptyName);
}

export function checkDocument(document: string): DomainError | undefined {
  const problem = taxIdProblem(document);
  return problem ? invalid(ERRORS.VALIDATION_ERROR.document({ document, problem })) : undefined;
}

export function checkFeeChanges(changes: Partial<FeePlan>): DomainError | undefined {
  for (const [key, value] of Object.entries(changes)) {
    const flat = key === 'boletoFlatCents';
    const max = flat ? MAX_BOLETO_FLAT_CENTS : MAX_RATE_BP;
    if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > max) {
      return invalid(ERRORS.VALIDATION_ERROR.feeOutOfRange({ key, max, unit: flat ? 'centavos' : 'basis points' }));
    }
  }
  return undefined;
}

export function checkScopes(scopes: string[]): DomainError | undefined {
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  return unknown.length > 0 ? invalid(ERRORS.VALIDATION_ERROR.unknownScope({ unknown: unknown.join(', '), known: SCOPES.join(', ') })) : undefined;
}

/**
 * A key made in the dashboard has at most the scopes its creator's role may
 * grant (`grantable`). Refused as 403 FORBIDDEN, the API's answer to a scope
 * a caller lacks, with `scopes` named.
 */
export function checkGrantable(scopes: readonly string[], grantable: readonly Scope[]): DomainError | undefined {
  const above = scopes.filter((s) => !(grantable as readonly string[]).includes(s));
  if (above.length === 0) return undefined;
  const list = above.join(', ');
  return new DomainError('FORBIDDEN', ERRORS.FORBIDDEN.scopeAboveRole({ scopes: list }), [{ field: 'scopes', message: PROBLEMS.scopesAboveRole({ scopes: list }) }]);
}
