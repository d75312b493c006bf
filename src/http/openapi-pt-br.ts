/**
 * The API reference in Brazilian Portuguese (openapi-localize.ts): the guide,
 * the words of the responses, and every other text of the document by its
 * English wording. openapi-pt-br.test.ts fails when a text of the document
 * has no entry here, so a route added or reworded in English gets its
 * Portuguese in the same change. The vocabulary is the error messages':
 * intenção de pagamento, transação, reembolso, divisão, recebedor, requisição.
 */
import type { ErrorCode } from '../lib/domain-error.js';
import { API_GUIDE_PT_BR } from './api-guide-pt-br.js';
import type { DocumentLanguage } from './openapi-localize.js';
import { SCHEMA_TEXTS } from './openapi-pt-br-schemas.js';

const CODES: Record<ErrorCode, string> = {
  VALIDATION_ERROR: 'entrada inválida; `details` nomeia cada campo',
  TOKEN_REQUIRED: 'confirmação de cartão sem `token`',
  UNAUTHORIZED: 'chave de API ausente, inválida, revogada ou do outro ambiente',
  TICKET_EXPIRED: 'a intenção do ticket expirou',
  FORBIDDEN: 'a chave não tem o escopo desta operação',
  NOT_FOUND: 'nenhum recurso assim para esta empresa',
  INTENT_ALREADY_PROCESSED: 'a intenção já foi confirmada, falhou ou foi cancelada',
  INTENT_EXPIRED: 'a intenção expirou; crie outra',
  IDEMPOTENCY_KEY_IN_USE: 'uma requisição com esta Idempotency-Key ainda está em andamento; tente de novo em instantes',
  TRANSACTION_NOT_PENDING: 'a transação não está no estado que esta mudança exige',
  PAYMENT_LINK_UNAVAILABLE: 'o link de pagamento expirou, foi cancelado ou esgotou',
  TRANSACTION_NOT_REFUNDABLE: 'a transação não está PAID, ou é um boleto',
  REFUND_EXCEEDS_AVAILABLE: 'mais do que resta a reembolsar',
  REFUND_IN_PROGRESS: 'um reembolso de cartão desta transação ainda está PENDING',
  LAST_ADMIN: 'o painel: a mudança deixaria a empresa sem administrador',
  PAYLOAD_TOO_LARGE: 'o corpo passa do limite',
  SPLIT_INVALID: 'as regras de divisão não fecham; `details` nomeia a regra',
  SPLIT_RECIPIENT_NOT_FOUND: 'um recebedor não é uma conta aprovada',
  WEBHOOK_URL_INVALID: 'a URL não é https ou seu host não é público',
  WEBHOOK_LIMIT_REACHED: 'a empresa já tem 10 cadastros ativos',
  IDEMPOTENCY_KEY_REUSED: 'esta Idempotency-Key foi usada com outra rota ou outro corpo',
  PAYMENT_METHOD_UNAVAILABLE: 'a forma de pagamento está desligada neste serviço',
  RATE_LIMITED: 'requisições demais; aguarde Retry-After segundos',
  INTERNAL_ERROR: 'uma falha inesperada (registrada com o id da requisição)',
  PROVIDER_ERROR: 'o adquirente ou o PSP não respondeu',
  SERVICE_UNAVAILABLE: 'o banco de dados não responde; aguarde Retry-After segundos',
};

const IDEMPOTENCY = 'Mesma chave, rota e corpo em até 24 horas: a primeira resposta é repetida (Idempotent-Replayed: true) e nada roda duas vezes.';
const SENT = (type: string) => `Enviado como POST a cada cadastro ativo que escolheu \`${type}\`; o mesmo evento pode chegar mais de uma vez e em qualquer ordem.`;
const SENT_EN = (type: string) => `Sent as a POST to each active registration that selected \`${type}\`; the same event may arrive more than once and in any order.`;

/** Each event's webhook: its summary and what it says, in both languages. */
const EVENTS: Array<[string, string, string]> = [
  ['transaction.created', 'A payment intent was confirmed: its transaction exists (Pix and boleto PENDING; card PAID or FAILED next).', 'Uma intenção de pagamento foi confirmada: sua transação existe (Pix e boleto PENDING; cartão PAID ou FAILED em seguida).'],
  ['transaction.paid', 'The buyer paid (including the sandbox pay route); split receivables exist from now on.', 'O comprador pagou (inclusive pela rota de pagamento do sandbox); os recebíveis da divisão existem a partir de agora.'],
  ['transaction.canceled', 'The transaction was canceled, refused, expired or charged back.', 'A transação foi cancelada, recusada, expirou ou sofreu chargeback.'],
  ['refund.succeeded', 'A refund gave the money back; `data.refund` is the refund.', 'Um reembolso devolveu o dinheiro; `data.refund` é o reembolso.'],
  ['refund.failed', 'The provider refused a refund; `data.refund.failureReason` says why.', 'O provedor recusou um reembolso; `data.refund.failureReason` diz por quê.'],
  [
    'payment_intent.reversed',
    'A card approval that reached the acquirer after its payment intent was recorded FAILED was reversed there (desfazimento): no money moved and no transaction exists; `data.paymentIntent` is the intent, `data.reversal` the reversal.',
    'Uma aprovação de cartão que chegou ao adquirente depois que a intenção de pagamento foi registrada FAILED foi desfeita lá (desfazimento): nenhum dinheiro se moveu e nenhuma transação existe; `data.paymentIntent` é a intenção, `data.reversal` o desfazimento.',
  ],
  [
    'webhook.disabled',
    'A registration whose deliveries had all failed for WEBHOOK_DISABLE_AFTER (5 days by default) was disabled; `data.webhook` names it. Its deliveries wait until POST /v2/webhooks/{id}/enable.',
    'Um cadastro cujas entregas falharam todas por WEBHOOK_DISABLE_AFTER (5 dias por padrão) foi desativado; `data.webhook` o identifica. Suas entregas aguardam até POST /v2/webhooks/{id}/enable.',
  ],
];

const TEXTS: Record<string, string> = {
  'Payment collection API': 'API de cobranças',
  // Tags
  Health: 'Saúde',
  'Payment intents': 'Intenções de pagamento',
  Transactions: 'Transações',
  'Payment links': 'Links de pagamento',
  'Hosted payment page (public)': 'Página de pagamento hospedada (pública)',
  Receivables: 'Recebíveis',
  Refunds: 'Reembolsos',
  Webhooks: 'Webhooks',
  Events: 'Eventos',
  Sandbox: 'Sandbox',
  'Provider notifications': 'Notificações dos provedores',
  // Summaries and descriptions of operations
  Liveness: 'Processo no ar',
  'Readiness: the database answers': 'Prontidão: o banco de dados responde',
  'Create a payment intent (with confirm: true, also confirm it)': 'Criar uma intenção de pagamento (com confirm: true, também confirmá-la)',
  'Get a payment intent': 'Consultar uma intenção de pagamento',
  'Confirm a payment intent: it becomes a transaction': 'Confirmar uma intenção de pagamento: ela vira uma transação',
  'Idempotency-Key is required. Pix and boleto: no body. Card: {"token": "vtk_…"}.': 'Idempotency-Key é obrigatória. Pix e boleto: sem corpo. Cartão: {"token": "vtk_…"}.',
  'Cancel an unconfirmed payment intent': 'Cancelar uma intenção de pagamento não confirmada',
  'List transactions, newest first': 'Listar transações, as mais novas primeiro',
  'Get a transaction': 'Consultar uma transação',
  'Create a payment link: a hosted page (its `url`) where buyers pay': 'Criar um link de pagamento: uma página hospedada (sua `url`) onde os compradores pagam',
  'List payment links, newest first': 'Listar links de pagamento, os mais novos primeiro',
  'Get a payment link': 'Consultar um link de pagamento',
  'Cancel a payment link: its page takes no more payments': 'Cancelar um link de pagamento: sua página não aceita mais pagamentos',
  "The hosted page starts the buyer's payment (card intent, or Pix / boleto charge)": 'A página hospedada inicia o pagamento do comprador (intenção de cartão, ou cobrança Pix / boleto)',
  "The hosted page confirms the buyer's card intent with the vault's token": 'A página hospedada confirma a intenção de cartão do comprador com o token do cofre',
  'The state of a sale of the link, as the page polls it': 'O estado de uma venda do link, como a página o consulta',
  'List receivables, newest first': 'Listar recebíveis, os mais novos primeiro',
  'Filter by status, recipientDocument and expected date range (YYYY-MM-DD, São Paulo calendar).': 'Filtre por status, recipientDocument e intervalo de datas previstas (AAAA-MM-DD, calendário de São Paulo).',
  'Refund all or part of a PAID transaction': 'Reembolsar toda ou parte de uma transação PAID',
  'Idempotency-Key is required. `amountCents` absent: all that is left to refund. Card: a void of that amount at the acquirer; Pix: a devolução at the PSP, asynchronous (the refund stays PENDING until the PSP settles it). A boleto cannot be refunded (409 TRANSACTION_NOT_REFUNDABLE).':
    'Idempotency-Key é obrigatória. Sem `amountCents`: tudo o que resta a reembolsar. Cartão: um cancelamento desse valor no adquirente; Pix: uma devolução no PSP, assíncrona (o reembolso fica PENDING até o PSP liquidá-la). Um boleto não pode ser reembolsado (409 TRANSACTION_NOT_REFUNDABLE).',
  "List a transaction's refunds, newest first": 'Listar os reembolsos de uma transação, os mais novos primeiro',
  'Get a refund': 'Consultar um reembolso',
  'Register a webhook URL (the secret is shown only in this response)': 'Cadastrar uma URL de webhook (o segredo aparece só nesta resposta)',
  'List active webhook registrations': 'Listar os cadastros de webhook ativos',
  'Get a webhook registration': 'Consultar um cadastro de webhook',
  'Delete a webhook registration (its pending deliveries stop)': 'Excluir um cadastro de webhook (suas entregas pendentes param)',
  'Enable a disabled webhook registration again (what waited for it is sent at once)': 'Reativar um cadastro de webhook desativado (o que aguardava por ele é enviado na hora)',
  'Every delivery to a registration, newest first, with its attempts': 'Cada entrega a um cadastro, as mais novas primeiro, com suas tentativas',
  'List events, newest first (with after: the later ones, oldest first)': 'Listar eventos, os mais novos primeiro (com after: os seguintes, os mais antigos primeiro)',
  'Get an event exactly as delivered': 'Consultar um evento exatamente como foi entregue',
  'Deliver an event again (same id and body, new timestamp and signature)': 'Entregar um evento de novo (mesmo id e corpo, novo horário e nova assinatura)',
  'Body {"webhookId": "whk_…"} sends to one registration; without it, to every active registration that selected the type.': 'O corpo {"webhookId": "whk_…"} envia a um cadastro; sem ele, a cada cadastro ativo que escolheu o tipo.',
  'Sandbox: mark a PENDING transaction PAID (again on a PAID one: unchanged, no second event)': 'Sandbox: marcar uma transação PENDING como PAID (de novo numa PAID: nada muda, nenhum segundo evento)',
  'Sandbox: cancel a PENDING transaction (emits transaction.canceled)': 'Sandbox: cancelar uma transação PENDING (emite transaction.canceled)',
  "Sandbox: pay all of a PAID transaction's receivables now": 'Sandbox: pagar agora todos os recebíveis de uma transação PAID',
  'Sandbox: a chargeback of a PAID card transaction (CANCELED, transaction.canceled, receivables reversed)': 'Sandbox: um chargeback de uma transação de cartão PAID (CANCELED, transaction.canceled, recebíveis revertidos)',
  'Notifications from bcb-api-pix (no API key; every claim is verified with the provider)': 'Notificações do bcb-api-pix (sem chave de API; cada afirmação é conferida com o provedor)',
  'Notifications from cielo (no API key; every claim is verified with the provider)': 'Notificações da cielo (sem chave de API; cada afirmação é conferida com o provedor)',
  // Parameters and headers
  'Optional. Same key, route and body within 24 hours: the first response is replayed (Idempotent-Replayed: true) and nothing runs twice.': `Opcional. ${IDEMPOTENCY}`,
  'Required on this operation. Same key, route and body within 24 hours: the first response is replayed (Idempotent-Replayed: true) and nothing runs twice.': `Obrigatória nesta operação. ${IDEMPOTENCY}`,
  'the sales of one payment link': 'as vendas de um link de pagamento',
  'the token the page was served with': 'o token com que a página foi servida',
  'the receivables of one recipient': 'os recebíveis de um recebedor',
  'the events that came after this one, oldest first (a feed to follow, as svc listen does); not with startingAfter': 'os eventos que vieram depois deste, os mais antigos primeiro (um feed a acompanhar, como faz o svc listen); não junto com startingAfter',
  "The request's id (a valid incoming X-Request-Id is echoed); quote it when reporting a problem.": 'O id da requisição (um X-Request-Id válido recebido é repetido); cite-o ao relatar um problema.',
  'Requests allowed per window (one second) for this API key.': 'Requisições permitidas por janela (um segundo) para esta chave de API.',
  'Requests left in the current window.': 'Requisições que restam na janela atual.',
  'Seconds until the window resets.': 'Segundos até a janela recomeçar.',
  'Seconds to wait before retrying.': 'Segundos a esperar antes de tentar de novo.',
  'Present, and `true`, when this response is the stored response of an earlier request with the same Idempotency-Key.': 'Presente, e `true`, quando esta resposta é a resposta guardada de uma requisição anterior com a mesma Idempotency-Key.',
  'Always `Bearer`.': 'Sempre `Bearer`.',
  'svc_test_… (sandbox) or svc_live_… (production)': 'svc_test_… (sandbox) ou svc_live_… (produção)',
  // What a success answers
  'The process is up': 'O processo está no ar',
  'The database answers': 'O banco de dados responde',
  'the payment intent': 'a intenção de pagamento',
  'the transaction': 'a transação',
  'the payment link': 'o link de pagamento',
  'the payment page charge': 'a cobrança da página de pagamento',
  'the payment page payment': 'o pagamento da página de pagamento',
  'the refund': 'o reembolso',
  'the created webhook': 'o webhook criado',
  'the webhook list': 'a lista de webhooks',
  'the webhook': 'o webhook',
  'the registration is deleted (no body)': 'o cadastro foi excluído (sem corpo)',
  'the event': 'o evento',
  'the event resend': 'o reenvio do evento',
  'A page of Transaction items, newest first': 'Uma página de itens Transaction, os mais novos primeiro',
  'A page of PaymentLink items, newest first': 'Uma página de itens PaymentLink, os mais novos primeiro',
  'A page of Receivable items, newest first': 'Uma página de itens Receivable, os mais novos primeiro',
  'A page of Refund items, newest first': 'Uma página de itens Refund, os mais novos primeiro',
  'A page of WebhookDelivery items, newest first': 'Uma página de itens WebhookDelivery, os mais novos primeiro',
  'A page of Event items, newest first': 'Uma página de itens Event, os mais novos primeiro',
  "payment ids stored for verification with the provider": 'ids de pagamento guardados para conferência com o provedor',
  "the provider's notification, as its documentation defines it": 'a notificação do provedor, como a documentação dele a define',
};

const WEBHOOK_TEXTS: Record<string, string> = {
  "The event's id (evt_…); the same on every attempt: use it to drop repeats.": 'O id do evento (evt_…); o mesmo em cada tentativa: use-o para descartar repetições.',
  'The event type.': 'O tipo do evento.',
  'Send time, Unix seconds; reject a delivery more than 300 s away from your clock.': 'Horário do envio, em segundos Unix; recuse uma entrega a mais de 300 s do seu relógio.',
  '`v1=` and the lowercase hex HMAC-SHA256 of `<X-Svc-Timestamp>.<raw body>` keyed with the whole registration secret (`whsec_…`); compare in constant time.':
    '`v1=` e o HMAC-SHA256 em hexadecimal minúsculo de `<X-Svc-Timestamp>.<corpo bruto>` com o segredo inteiro do cadastro (`whsec_…`) como chave; compare em tempo constante.',
  'Standard Webhooks: the event id, as X-Svc-Event-Id.': 'Standard Webhooks: o id do evento, como X-Svc-Event-Id.',
  'Standard Webhooks: send time, Unix seconds.': 'Standard Webhooks: horário do envio, em segundos Unix.',
  'Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>` keyed with the bytes the secret decodes to after `whsec_`.':
    'Standard Webhooks: `v1,` e o HMAC-SHA256 em base64 de `<webhook-id>.<webhook-timestamp>.<corpo bruto>` com os bytes que o segredo decodifica depois de `whsec_` como chave.',
  'Delivered: any 2xx within 10 seconds. Anything else is retried in production (1 min, 5 min, 30 min, 2 h, 12 h, each up to a fifth later at random; a 429 or 503 with Retry-After, in seconds or an HTTP date, is waited for, up to 12 h); the sandbox sends once.':
    'Entregue: qualquer 2xx em até 10 segundos. Qualquer outra resposta é tentada de novo em produção (1 min, 5 min, 30 min, 2 h, 12 h, cada uma até um quinto mais tarde, ao acaso; um 429 ou 503 com Retry-After, em segundos ou uma data HTTP, é esperado, até 12 h); o sandbox envia uma vez.',
  ...Object.fromEntries(EVENTS.flatMap(([type, english, portuguese]) => [
    [`Event ${type}`, `Evento ${type}`],
    [`${english} ${SENT_EN(type)}`, `${portuguese} ${SENT(type)}`],
  ])),
};

export const PT_BR_DOCUMENT: DocumentLanguage = {
  guide: API_GUIDE_PT_BR,
  texts: { ...TEXTS, ...WEBHOOK_TEXTS, ...SCHEMA_TEXTS },
  responses: { codes: CODES, success: { 200: 'OK', 201: 'Criado', 202: 'Aceito', 204: 'Sem conteúdo' } },
};
