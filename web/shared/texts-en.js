/*
 * The words both checkout pages (the demo checkout and the payment link
 * page) say alike, in English: payment methods, card installments, the
 * Pix and boleto labels, copy, refusals and errors. Each page's own texts
 * spread these first, so a page can still word a key its own way.
 */
export const SHARED_EN = {
  tabCard: 'Card',
  tabBoleto: 'Boleto',
  installmentsLabel: 'Installments',
  installmentN: '{n}x of {each}',
  installmentsFirstMore: '1x of {first} + {rest}x of {each}',
  cardLoading: 'Loading secure fields…',
  cardPay: 'Pay {amount}',
  cardPayInstallments: 'Pay {amount} in {n} installments',
  pixCodeLabel: 'Pix copy and paste',
  pixExpires: 'Valid until',
  boletoLineLabel: 'Digitable line',
  boletoDue: 'Due date',
  copy: 'Copy',
  copied: 'Copied!',
  retry: 'Try again',
  processing: 'Processing the payment…',
  failedTitle: 'Payment refused',
  failedText: 'The payment was not approved. Check the details or use another card.',
  refusal_insufficient_funds: 'The issuing bank refused the payment: insufficient funds.',
  refusal_expired_card: 'The issuing bank refused the payment: expired card.',
  factMethod: 'Method',
  factAmount: 'Amount',
  methodCard: 'Credit card',
  methodPix: 'Pix',
  methodBoleto: 'Boleto',
  error_RATE_LIMITED: 'Too many attempts in a short time. Wait a minute and try again.',
  error_PROVIDER_ERROR: 'The payment processor did not answer. You were not charged; try again.',
  langToggle: 'Português',
  // The sandbox's test cards (shared/test-cards.js)
  testCardsTitle: 'Sandbox test cards',
  testCardsNote: 'Any future expiry, CVV 123 and any name.',
  outcome_approved: 'approved',
  outcome_insufficient: 'refused: insufficient funds',
  outcome_expired: 'refused: expired card',
  outcome_silent: 'acquirer silent (502 error)',
};
