/**
 * Request fixtures shared by every test: the buyer, sale bodies for each
 * payment method, split rules, and valid CPF/CNPJ numbers. Route tests
 * (inject), end-to-end tests (HTTP) and pure tests use the same ones.
 */

type Json = Record<string, unknown>;

export const BUYER = {
  name: 'Maria da Silva',
  document: '52998224725',
  email: 'maria@example.com',
  address: { street: 'Rua Augusta', number: '100', neighborhood: 'Consolação', city: 'São Paulo', state: 'SP' as const, zipCode: '01304000' },
};

/** The buyer without an address: all a card sale needs. */
export const CARD_BUYER = { name: BUYER.name, document: BUYER.document, email: BUYER.email };

export function pixIntent(overrides: Json = {}) {
  return { amountCents: 10_000, paymentMethod: 'PIX', referenceId: 'order-1', buyer: BUYER, ...overrides };
}

export function boletoIntent(overrides: Json = {}) {
  return { amountCents: 10_000, paymentMethod: 'BOLETO', referenceId: 'order-2', buyer: BUYER, ...overrides };
}

/** A card sale: created without a token, confirmed later with the vault's token. */
export function cardIntent(overrides: Json = {}) {
  return { amountCents: 10_000, paymentMethod: 'CREDIT_CARD', referenceId: 'order-card', buyer: CARD_BUYER, ...overrides };
}

/** A PERCENTAGE split rule (percentage left out when not given, for validation tests). */
export const pct = (recipientDocument: string, percentage?: number): Json => ({
  recipientDocument,
  type: 'PERCENTAGE',
  ...(percentage === undefined ? {} : { percentage }),
});

/** A FIXED split rule (amount left out when not given, for validation tests). */
export const fixed = (recipientDocument: string, amountCents?: number): Json => ({
  recipientDocument,
  type: 'FIXED',
  ...(amountCents === undefined ? {} : { amountCents }),
});

/** The mod-11 check digit of `digits` under `weights` (CPF and CNPJ). */
function mod11(digits: string, weights: number[]): number {
  const sum = weights.reduce((s, w, i) => s + w * Number(digits[i]), 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** A valid CPF from its first 9 digits. */
export function cpf(base9: string): string {
  const d1 = mod11(base9, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = mod11(`${base9}${d1}`, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return `${base9}${d1}${d2}`;
}

/** A valid CNPJ from its first 12 digits. */
export function cnpj(base12: string): string {
  const d1 = mod11(base12, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = mod11(`${base12}${d1}`, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return `${base12}${d1}${d2}`;
}
