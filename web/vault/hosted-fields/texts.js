/*
 * The hosted fields' words, in Brazilian Portuguese (the default) and
 * English. Why a module: the page's labels, placeholders and every message
 * the buyer reads come from here, keyed by the states validate.js returns
 * and the error codes the vault answers. The button says what comes next
 * in a payment ("Continuar"), not what the vault does with the card; the
 * seller may word it (submitLabel).
 */
export const TEXT = {
  'pt-BR': {
    title: 'Dados do cartão',
    number: 'Número do cartão',
    expiry: 'Validade',
    cvv: 'Código de segurança (CVV)',
    holderName: 'Nome do titular',
    ph: { number: '1234 1234 1234 1234', expiry: 'MM/AA', cvv: '123', holderName: 'Como impresso no cartão' },
    submit: 'Continuar',
    busy: 'Processando…',
    saved: 'Dados do cartão recebidos',
    brand: 'Bandeira: ',
    err: {
      number: { required: 'Informe o número do cartão.', incomplete: 'Número do cartão incompleto.', invalid: 'Número do cartão inválido.' },
      expiry: { required: 'Informe a validade.', incomplete: 'Validade incompleta.', invalid: 'Validade inválida.', expired: 'Cartão vencido.' },
      cvv: { required: 'Informe o código de segurança.', incomplete: 'Código de segurança incompleto.', invalid: 'Código de segurança inválido.' },
      holderName: { required: 'Informe o nome do titular.', invalid: 'Nome do titular inválido.' },
    },
    code: {
      VALIDATION_ERROR: 'Verifique os dados do cartão.',
      TICKET_EXPIRED: 'Sessão expirada. Recarregue a página para tentar de novo.',
      RATE_LIMITED: 'Muitas tentativas. Aguarde um pouco e tente de novo.',
      PROVIDER_ERROR: 'Não foi possível enviar os dados do cartão. Tente de novo.',
      SERVICE_UNAVAILABLE: 'Serviço indisponível. Tente de novo em instantes.',
      CONFIG: 'Formulário de cartão mal configurado.',
    },
  },
  en: {
    title: 'Card details',
    number: 'Card number',
    expiry: 'Expiry date',
    cvv: 'Security code (CVV)',
    holderName: 'Cardholder name',
    ph: { number: '1234 1234 1234 1234', expiry: 'MM/YY', cvv: '123', holderName: 'As printed on the card' },
    submit: 'Continue',
    busy: 'Processing…',
    saved: 'Card details received',
    brand: 'Brand: ',
    err: {
      number: { required: 'Enter the card number.', incomplete: 'The card number is incomplete.', invalid: 'The card number is invalid.' },
      expiry: { required: 'Enter the expiry date.', incomplete: 'The expiry date is incomplete.', invalid: 'The expiry date is invalid.', expired: 'The card has expired.' },
      cvv: { required: 'Enter the security code.', incomplete: 'The security code is incomplete.', invalid: 'The security code is invalid.' },
      holderName: { required: 'Enter the cardholder name.', invalid: 'The cardholder name is invalid.' },
    },
    code: {
      VALIDATION_ERROR: 'Check the card details.',
      TICKET_EXPIRED: 'Session expired. Reload the page to try again.',
      RATE_LIMITED: 'Too many attempts. Wait a moment and try again.',
      PROVIDER_ERROR: 'The card details could not be sent. Try again.',
      SERVICE_UNAVAILABLE: 'Service unavailable. Try again shortly.',
      CONFIG: 'The card form is misconfigured.',
    },
  },
};
