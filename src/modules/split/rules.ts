/**
 * Split rules: validation and slices. Pure; recipient approval needs the
 * database and is left to the caller (see distinctRecipientDocuments and
 * unapprovedRecipientProblems).
 *
 * Money stays integer: a percentage becomes integer basis points read from its
 * decimal text, and a percentage slice is floor(amount × bp / 10 000), so the
 * slices of a sale never add up to more than what the rules promise.
 */
import { DomainError, summarizedError, validationFailure } from '../../lib/domain-error.js';
import { ERRORS } from '../../lib/i18n/messages/errors.js';
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';
import type { Text } from '../../lib/i18n/text.js';
import { MAX_AMOUNT_CENTS, percentOfFloor } from '../../lib/money.js';
import { taxIdProblem } from '../../lib/tax-id.js';

const MAX_SPLIT_RULES = 20;
const FULL_BP = 10_000;

export interface SplitRuleInput {
  recipientDocument: string;
  type: 'PERCENTAGE' | 'FIXED';
  percentage?: number;
  amountCents?: number;
}

export type SplitRole = 'SELLER' | 'CUSTOM_SPLIT_RECIPIENT';

export interface Slice {
  recipientDocument: string;
  role: SplitRole;
  grossAmountCents: number;
}

export interface SplitProblem {
  field: string;
  message: Text;
}

/** The error code a refused split answers with (HTTP 400 or 422, per the contract). */
export type SplitErrorKind = 'VALIDATION_ERROR' | 'SPLIT_INVALID' | 'SPLIT_RECIPIENT_NOT_FOUND';

export type SplitValidation =
  | { ok: true; slices: Slice[] }
  | { ok: false; kind: Exclude<SplitErrorKind, 'SPLIT_RECIPIENT_NOT_FOUND'>; problems: SplitProblem[] };

/**
 * A percentage as integer basis points (10.5 → 1050), or undefined when it is
 * not finite or has more than 2 decimal places. Read from the shortest decimal
 * text of the number (what the JSON carried), so 33.33 is exactly 3333 and
 * 10.555 or 0.1 + 0.2 are refused instead of being rounded by float error.
 */
export function percentageToBasisPoints(p: number): number | undefined {
  if (!Number.isFinite(p)) return undefined;
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(p));
  if (!m) return undefined;
  const [, sign, whole, fraction = '', exponent = '0'] = m;
  const decimals = fraction.length - Number(exponent); // value = (whole fraction) × 10^-decimals
  if (decimals > 2) return undefined; // the shortest text has no trailing zeros to drop
  const bp = Number(whole! + fraction + '0'.repeat(2 - decimals));
  if (!Number.isSafeInteger(bp)) return undefined;
  return sign === '-' && bp !== 0 ? -bp : bp;
}

/** The sale amount is validated upstream; out of range here is a programming error. */
function assertSaleAmount(amountCents: number): void {
  if (!Number.isSafeInteger(amountCents) || amountCents < 1 || amountCents > MAX_AMOUNT_CENTS) {
    throw new RangeError(`sale amount out of range: ${amountCents}`);
  }
}

const at = (i: number, field: keyof SplitRuleInput): string => `splitRules[${i}].${field}`;

/** Problems of shape (400 VALIDATION_ERROR): too many rules, malformed or invalid tax ids. */
function shapeProblems(rules: SplitRuleInput[]): SplitProblem[] {
  const problems: SplitProblem[] = [];
  if (rules.length > MAX_SPLIT_RULES) {
    problems.push({ field: 'splitRules', message: PROBLEMS.splitRules({ limit: MAX_SPLIT_RULES }) });
  }
  rules.forEach((rule, i) => {
    const problem = taxIdProblem(rule.recipientDocument);
    if (problem) problems.push({ field: at(i, 'recipientDocument'), message: problem });
  });
  return problems;
}

/**
 * The value of one rule, or a problem. A rule carrying the other type's value
 * is refused too: {type: PERCENTAGE, amountCents} is ambiguous, and guessing
 * which one the seller meant would move money the seller did not intend.
 */
function ruleValue(rule: SplitRuleInput, i: number): { bp: number } | { cents: number } | SplitProblem {
  if (rule.type === 'PERCENTAGE') {
    if (rule.percentage === undefined) return { field: at(i, 'percentage'), message: PROBLEMS.requiredWithType({ type: 'PERCENTAGE' }) };
    if (rule.amountCents !== undefined) return { field: at(i, 'amountCents'), message: PROBLEMS.notAllowedWithType({ type: 'PERCENTAGE' }) };
    const p = rule.percentage;
    if (!(p > 0 && p <= 100)) return { field: at(i, 'percentage'), message: PROBLEMS.percentage };
    const bp = percentageToBasisPoints(p);
    if (bp === undefined) return { field: at(i, 'percentage'), message: PROBLEMS.twoDecimals };
    return { bp };
  }
  if (rule.amountCents === undefined) return { field: at(i, 'amountCents'), message: PROBLEMS.requiredWithType({ type: 'FIXED' }) };
  if (rule.percentage !== undefined) return { field: at(i, 'percentage'), message: PROBLEMS.notAllowedWithType({ type: 'FIXED' }) };
  const cents = rule.amountCents;
  if (!Number.isSafeInteger(cents) || cents <= 0) {
    return { field: at(i, 'amountCents'), message: PROBLEMS.positiveCentavos };
  }
  return { cents };
}

/**
 * Validates split rules against a sale. 400 problems (shape) win over 422
 * ones; within a class every problem is reported, each naming its field
 * (`splitRules` or `splitRules[i].<field>`). Accepted rules come back as
 * slices. Approval of the recipients is the caller's next step.
 */
export function validateSplitRules(rules: SplitRuleInput[], amountCents: number, sellerDocument: string): SplitValidation {
  assertSaleAmount(amountCents);
  const shape = shapeProblems(rules);
  if (shape.length > 0) return { ok: false, kind: 'VALIDATION_ERROR', problems: shape };

  const problems: SplitProblem[] = [];
  const seen = new Set<string>();
  let bpSum = 0;
  let sliceSum = 0;
  let bpReported = false;
  let sliceReported = false;
  rules.forEach((rule, i) => {
    const doc = rule.recipientDocument;
    if (doc === sellerDocument) {
      problems.push({ field: at(i, 'recipientDocument'), message: PROBLEMS.sellerAsRecipient });
    } else if (seen.has(doc)) {
      problems.push({ field: at(i, 'recipientDocument'), message: PROBLEMS.repeatedRecipient });
    }
    seen.add(doc);

    const value = ruleValue(rule, i);
    if ('field' in value) {
      problems.push(value);
      return;
    }
    // The running sums name the rule at which they first go over, the one to fix.
    if ('bp' in value) {
      bpSum += value.bp;
      sliceSum += percentOfFloor(amountCents, value.bp);
      if (bpSum > FULL_BP && !bpReported) {
        bpReported = true;
        problems.push({ field: at(i, 'percentage'), message: PROBLEMS.percentagesOver100 });
      }
    } else {
      sliceSum += value.cents;
    }
    if (sliceSum > amountCents && !sliceReported) {
      sliceReported = true;
      problems.push({ field: at(i, 'bp' in value ? 'percentage' : 'amountCents'), message: PROBLEMS.slicesOverAmount });
    }
  });
  if (problems.length > 0) return { ok: false, kind: 'SPLIT_INVALID', problems };
  return { ok: true, slices: slicesOf(rules, amountCents, sellerDocument) };
}

/**
 * The slices of a sale under already validated rules: SELLER first, then one
 * per rule in rule order. The seller's slice is what the rules leave and is
 * always present, even at 0 (rules taking the whole sale): the seller is a
 * party to every sale, and "one receivable per account and per installment"
 * stays uniform. A rule slice may be 0 too (0.01 % of 50 centavos).
 * Throws when a rule's value or the sum of slices is invalid: money is never guessed.
 */
export function slicesOf(rules: SplitRuleInput[], amountCents: number, sellerDocument: string): Slice[] {
  assertSaleAmount(amountCents);
  const recipients = rules.map((rule, i): Slice => {
    const value = ruleValue(rule, i);
    if ('field' in value) throw new RangeError(`${value.field}: ${value.message}`);
    const gross = 'bp' in value ? percentOfFloor(amountCents, value.bp) : value.cents;
    return { recipientDocument: rule.recipientDocument, role: 'CUSTOM_SPLIT_RECIPIENT', grossAmountCents: gross };
  });
  const rest = recipients.reduce((left, s) => left - s.grossAmountCents, amountCents);
  if (rest < 0) throw new RangeError('split slices exceed the sale amount');
  return [{ recipientDocument: sellerDocument, role: 'SELLER', grossAmountCents: rest }, ...recipients];
}

/** The distinct recipient documents of the rules, in rule order: the ones to look up as approved accounts. */
export function distinctRecipientDocuments(rules: SplitRuleInput[]): string[] {
  return [...new Set(rules.map((r) => r.recipientDocument))];
}

/** SPLIT_RECIPIENT_NOT_FOUND problems for the rules whose recipient is not an approved account. */
export function unapprovedRecipientProblems(rules: SplitRuleInput[], isApproved: (document: string) => boolean): SplitProblem[] {
  return rules.flatMap((rule, i) =>
    isApproved(rule.recipientDocument)
      ? []
      : [{ field: at(i, 'recipientDocument'), message: PROBLEMS.notApprovedAccount }],
  );
}

/** The contract's error for a refused split: 400 VALIDATION_ERROR (shape), 422 SPLIT_INVALID (sums), 422 SPLIT_RECIPIENT_NOT_FOUND. */
export function splitError(kind: SplitErrorKind, problems: SplitProblem[]): DomainError {
  const details = problems.map((p) => ({ field: p.field, message: p.message }));
  if (kind === 'VALIDATION_ERROR') return validationFailure(details);
  if (kind === 'SPLIT_INVALID') return summarizedError('SPLIT_INVALID', ERRORS.SPLIT_INVALID.invalid, details);
  return new DomainError('SPLIT_RECIPIENT_NOT_FOUND', ERRORS.SPLIT_RECIPIENT_NOT_FOUND.notApproved, details);
}
