/*
 * The demo checkout's limits and its one mutable state. Why a module: the
 * flows, the result view and the page controls all read and change the same
 * order (its method, intent, transaction and the mounted card fields).
 */

/** The amount a new order starts with, R$ 159,90 (as the server's DEMO_DEFAULT_AMOUNT_CENTS). */
export const DEFAULT_AMOUNT_CENTS = 15990;
/** R$ 999.999,99, the most the demo charges (the server's DEMO_MAX_AMOUNT_CENTS). */
export const MAX_AMOUNT_CENTS = 99999999;
/** A boleto is refused below R$ 5,00. */
export const BOLETO_MIN_CENTS = 500;

/** The payment tabs, in their order on the page. */
export const METHODS = ['CREDIT_CARD', 'PIX', 'BOLETO'];

export const state = {
  locale: 'pt-BR',
  config: null, // {vaultUrl, companyName}
  method: 'CREDIT_CARD',
  busy: false,
  intent: null,
  transaction: null,
  handle: null, // SvcVault mount handle
};
