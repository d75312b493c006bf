// Public surface of the split module: rules and slices, fee allocation and
// receivables, and the business-day calendar their dates follow.
export {
  distinctRecipientDocuments,
  percentageToBasisPoints,
  slicesOf,
  splitError,
  unapprovedRecipientProblems,
  validateSplitRules,
  MAX_SPLIT_RULES,
} from './rules.js';
export type { Slice, SplitErrorKind, SplitProblem, SplitRole, SplitRuleInput, SplitValidation } from './rules.js';
export { allocateFee, computeReceivables, expectedOn, splitInstallments, MAX_INSTALLMENTS } from './allocate.js';
export type { ReceivableLine, ReceivablesInput, SplitPaymentMethod } from './allocate.js';
export { easterSunday, isBusinessDay, nationalHolidays, nextBusinessDay } from './calendar.js';
