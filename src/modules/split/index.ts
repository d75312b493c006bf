// Public surface of the split module: rules and slices, fee allocation and
// receivables, and the business-day calendar their dates follow.
export {
  distinctRecipientDocuments,
  percentageToBasisPoints,
  slicesOf,
  splitError,
  unapprovedRecipientProblems,
  validateSplitRules,
} from './rules.js';
export type { Slice, SplitRuleInput } from './rules.js';
export { allocateFee, computeReceivables, splitInstallments } from './allocate.js';
export type { ReceivableLine, SplitPaymentMethod } from './allocate.js';
export { easterSunday, isBusinessDay, nationalHolidays, nextBusinessDay } from './calendar.js';
export { adjustmentDueOn, feeKeptAfter, reverseLines } from './refund.js';
export type { LineChange, ReversalLine } from './refund.js';
