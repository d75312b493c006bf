export { addToDays, daysBetween, nextToReceive, receivableTotals, type DaySums } from './repo.js';
export { paidDeltas, reversalDeltas, settledDeltas } from './rules.js';
