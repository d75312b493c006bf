/**
 * What the sandbox acquirer does with a card, by its last 4 digits (contract
 * "Sandbox"): any card is approved except the endings …0002 (insufficient
 * funds), …0069 (expired card) and …0119 (the acquirer stays silent → 502
 * PROVIDER_ERROR). Pure. The acquirer sees the last 4 digits only through the
 * authorization the vault builds; the vault's test card table names these outcomes.
 */
export type SandboxCardOutcome = 'approved' | 'insufficient_funds' | 'expired_card' | 'silent';

export type CardRefusalCode = 'insufficient_funds' | 'expired_card';

/** `refusalCode` / `refusalMessage` for a refused card's paymentDetails.card. */
export const CARD_REFUSALS: Readonly<Record<CardRefusalCode, { refusalCode: CardRefusalCode; refusalMessage: string }>> = {
  insufficient_funds: { refusalCode: 'insufficient_funds', refusalMessage: 'The issuer refused the payment: insufficient funds.' },
  expired_card: { refusalCode: 'expired_card', refusalMessage: 'The issuer refused the payment: the card has expired.' },
};

/** Number endings with a special sandbox outcome. */
const SANDBOX_OUTCOMES: Readonly<Record<string, Exclude<SandboxCardOutcome, 'approved'>>> = {
  '0002': 'insufficient_funds',
  '0069': 'expired_card',
  '0119': 'silent',
};

export type SandboxAuthorization =
  | { outcome: 'approved' }
  | { outcome: 'refused'; refusalCode: CardRefusalCode; refusalMessage: string }
  | { outcome: 'silent' };

/** The sandbox outcome of a card whose number ends in `last4`. */
export const sandboxOutcomeOfLast4 = (last4: string): SandboxCardOutcome => SANDBOX_OUTCOMES[last4] ?? 'approved';

/** sandboxOutcomeOfLast4 with the refusal code and message filled in. */
export function sandboxAuthorizationOfLast4(last4: string): SandboxAuthorization {
  const outcome = sandboxOutcomeOfLast4(last4);
  if (outcome === 'approved' || outcome === 'silent') return { outcome };
  return { outcome: 'refused', ...CARD_REFUSALS[outcome] };
}
