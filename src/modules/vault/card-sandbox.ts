/**
 * The sandbox's test cards. Their outcomes are the sandbox acquirer's
 * (acquirer/sandbox-cards.ts): the vault depends on the acquirer, never the
 * other way round.
 */
import type { SandboxCardOutcome } from '../providers/index.js';
import type { CardBrand } from './card-brands.js';

// ---------------------------------------------------------------------------
// Test cards: Luhn-valid, right BIN and length for their brand. Well-known
// network test numbers where one exists; the others were built for this
// table (prefix + zeros, one digit adjusted for Luhn).

export interface TestCard {
  number: string;
  brand: CardBrand;
  cvvLength: number;
  outcome: SandboxCardOutcome;
  note: string;
}

export const TEST_CARDS: readonly TestCard[] = [
  { number: '4111111111111111', brand: 'visa', cvvLength: 3, outcome: 'approved', note: 'Visa' },
  { number: '5555555555554444', brand: 'mastercard', cvvLength: 3, outcome: 'approved', note: 'Mastercard 51–55' },
  { number: '2223003122003222', brand: 'mastercard', cvvLength: 3, outcome: 'approved', note: 'Mastercard 2-series' },
  { number: '378282246310005', brand: 'amex', cvvLength: 4, outcome: 'approved', note: 'American Express (15 digits)' },
  { number: '30569309025904', brand: 'diners', cvvLength: 3, outcome: 'approved', note: 'Diners Club (14 digits)' },
  { number: '6011111111111117', brand: 'discover', cvvLength: 3, outcome: 'approved', note: 'Discover' },
  { number: '3530111333300000', brand: 'jcb', cvvLength: 3, outcome: 'approved', note: 'JCB' },
  { number: '6362970000457013', brand: 'elo', cvvLength: 3, outcome: 'approved', note: 'Elo 636297' },
  { number: '4011780000300000', brand: 'elo', cvvLength: 3, outcome: 'approved', note: 'Elo 401178 (looks like Visa)' },
  { number: '6504060000100000', brand: 'elo', cvvLength: 3, outcome: 'approved', note: 'Elo 650406 (looks like Discover)' },
  { number: '6062825624254001', brand: 'hipercard', cvvLength: 3, outcome: 'approved', note: 'Hipercard 606282' },
  { number: '3841000000800000', brand: 'hipercard', cvvLength: 3, outcome: 'approved', note: 'Hipercard 384100 (looks like Diners)' },
  { number: '5078601870800000127', brand: 'aura', cvvLength: 3, outcome: 'approved', note: 'Aura (19 digits)' },
  { number: '4111113111110002', brand: 'visa', cvvLength: 3, outcome: 'insufficient_funds', note: 'refused: insufficient funds' },
  { number: '4111113111110069', brand: 'visa', cvvLength: 3, outcome: 'expired_card', note: 'refused: expired card' },
  { number: '4111113111110119', brand: 'visa', cvvLength: 3, outcome: 'silent', note: 'acquirer silent (502 PROVIDER_ERROR)' },
];
