/*
 * The words both checkout pages (the demo checkout and the payment link
 * page) say alike, in Brazilian Portuguese: payment methods, card installments, the
 * Pix and boleto labels, copy, refusals and errors. Each page's own texts
 * spread these first, so a page can still word a key its own way.
 */
export const SHARED_PT_BR = {
  tabCard: 'Cartão',
  tabBoleto: 'Boleto',
  installmentsLabel: 'Parcelas',
  installmentN: '{n}x de {each}',
  installmentsFirstMore: '1x de {first} + {rest}x de {each}',
  cardLoading: 'Carregando campos seguros…',
  cardPay: 'Pagar {amount}',
  cardPayInstallments: 'Pagar {amount} em {n}x',
  pixCodeLabel: 'Pix copia e cola',
  pixExpires: 'Válido até',
  boletoLineLabel: 'Linha digitável',
  boletoDue: 'Vencimento',
  copy: 'Copiar',
  copied: 'Copiado!',
  retry: 'Tentar novamente',
  processing: 'Processando o pagamento…',
  failedTitle: 'Pagamento recusado',
  failedText: 'O pagamento não foi aprovado. Confira os dados ou use outro cartão.',
  refusal_insufficient_funds: 'O banco emissor recusou o pagamento: saldo insuficiente.',
  refusal_expired_card: 'O banco emissor recusou o pagamento: cartão vencido.',
  factMethod: 'Forma',
  factAmount: 'Valor',
  methodCard: 'Cartão de crédito',
  methodPix: 'Pix',
  methodBoleto: 'Boleto',
  error_RATE_LIMITED: 'Muitas tentativas em pouco tempo. Aguarde um minuto e tente de novo.',
  error_PROVIDER_ERROR: 'O processador de pagamentos não respondeu. Nada foi cobrado; tente de novo.',
  langToggle: 'English',
  // The sandbox's test cards (shared/test-cards.js)
  testCardsTitle: 'Cartões de teste do sandbox',
  testCardsNote: 'Qualquer validade futura, CVV 123 e qualquer nome.',
  outcome_approved: 'aprovado',
  outcome_insufficient: 'recusado: saldo insuficiente',
  outcome_expired: 'recusado: cartão vencido',
  outcome_silent: 'adquirente não responde (erro 502)',
};
