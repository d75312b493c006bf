/**
 * What the card tests share (src/modules/vault/card*.test.ts): a moment, a
 * valid card to vary, and a number made Luhn-valid.
 */
import { luhnValid } from '../../src/modules/vault/card.js';

// 2025-06-15 12:00 in São Paulo.
export const NOW = new Date('2025-06-15T15:00:00Z');

/** A valid card's fields, with `overrides`. */
export function card(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { number: '4111111111111111', holderName: 'Maria da Silva', expMonth: 12, expYear: 2030, cvv: '123', ...overrides };
}

/** Replaces the digit at `pos` so the number becomes Luhn-valid. */
export function fixLuhn(digits: string, pos: number): string {
  for (let d = 0; d <= 9; d++) {
    const candidate = digits.slice(0, pos) + d + digits.slice(pos + 1);
    if (luhnValid(candidate)) return candidate;
  }
  throw new Error('unreachable');
}
