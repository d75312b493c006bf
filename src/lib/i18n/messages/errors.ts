/**
 * The `message` of every error the service answers, found by its code and
 * then by what happened, English and Brazilian Portuguese side by side.
 * A detail's own text (`details[].message`) is in problems.ts. A message
 * that repeats its details (a validation summary) is composed from them by
 * lib/domain-error.ts, not written here.
 */
import type { ErrorCode } from '../../error-codes.js';
import { template, type Text } from '../text.js';

export const ERRORS = {
  UNAUTHORIZED: {
    missingKey: { en: 'Missing API key: send Authorization: Bearer <API_KEY>', 'pt-BR': 'Chave de API ausente: envie Authorization: Bearer <API_KEY>' },
    invalidKey: { en: 'Invalid API key', 'pt-BR': 'Chave de API inválida' },
    otherEnvironment: template({
      en: (p: { environment: string }) => `This key belongs to the other environment; this is the ${p.environment} environment`,
      'pt-BR': (p) => `Esta chave pertence ao outro ambiente; este é o ambiente ${p.environment}`,
    }),
    internalRoute: { en: 'Internal route', 'pt-BR': 'Rota interna' },
    // The dashboard (modules/users): one message for a wrong e-mail and a wrong password.
    signIn: { en: 'Wrong e-mail or password', 'pt-BR': 'E-mail ou senha incorretos' },
    noSession: { en: 'Sign in to continue', 'pt-BR': 'Entre para continuar' },
    wrongCode: { en: 'Wrong code', 'pt-BR': 'Código incorreto' },
    wrongPassword: { en: 'Wrong password', 'pt-BR': 'Senha incorreta' },
  },
  FORBIDDEN: {
    missingScope: template({ en: (p: { scope: string }) => `This key lacks the ${p.scope} scope`, 'pt-BR': (p) => `Esta chave não tem o escopo ${p.scope}` }),
    missingScopeOr: template({
      en: (p: { scope: string; broad: string }) => `This key lacks the ${p.scope} scope (or ${p.broad}, which holds it)`,
      'pt-BR': (p) => `Esta chave não tem o escopo ${p.scope} (nem ${p.broad}, que o contém)`,
    }),
    // A dashboard member makes a key with at most what their role may do (users/roles.ts, grantableScopes).
    scopeAboveRole: template({
      en: (p: { scopes: string }) => `Your role cannot grant ${p.scopes}: an admin can issue that key`,
      'pt-BR': (p) => `Seu papel não pode conceder ${p.scopes}: um administrador pode emitir essa chave`,
    }),
    notFromThePage: { en: 'This request must come from the payment page', 'pt-BR': 'Esta requisição deve vir da página de pagamento' },
    pageOutOfDate: { en: 'The payment page is out of date: reload it', 'pt-BR': 'A página de pagamento está desatualizada: recarregue-a' },
    notFromTheDashboard: {
      en: 'This request must come from the dashboard: reload the page',
      'pt-BR': 'Esta requisição deve vir do painel: recarregue a página',
    },
    role: { en: 'Your role does not allow this', 'pt-BR': 'Seu papel não permite isto' },
    totpSetupRequired: {
      en: 'This company requires two-step verification: turn it on in My account first',
      'pt-BR': 'Esta empresa exige verificação em duas etapas: ative-a antes em Minha conta',
    },
    totpRequired: {
      en: 'This company requires two-step verification: it cannot be turned off',
      'pt-BR': 'Esta empresa exige verificação em duas etapas: ela não pode ser desativada',
    },
  },
  PAYLOAD_TOO_LARGE: {
    headers: { en: 'The request headers are larger than the limit', 'pt-BR': 'Os cabeçalhos da requisição excedem o limite' },
    body: { en: 'The request body is larger than the limit', 'pt-BR': 'O corpo da requisição excede o limite' },
  },
  VALIDATION_ERROR: {
    method: { en: 'The request method is not valid HTTP', 'pt-BR': 'O método da requisição não é HTTP válido' },
    path: { en: 'The request path is not valid HTTP', 'pt-BR': 'O caminho da requisição não é HTTP válido' },
    header: { en: 'A request header is not valid HTTP', 'pt-BR': 'Um cabeçalho da requisição não é HTTP válido' },
    notInTime: { en: 'The request was not received in time', 'pt-BR': 'A requisição não foi recebida a tempo' },
    notHttp: { en: 'The request is not valid HTTP', 'pt-BR': 'A requisição não é HTTP válido' },
    malformed: { en: 'The request is malformed', 'pt-BR': 'A requisição está malformada' },
    percentEncoding: { en: 'The request URL is not valid percent-encoding', 'pt-BR': 'A URL da requisição não tem codificação percentual válida' },
    notJson: { en: 'The request body is not valid JSON', 'pt-BR': 'O corpo da requisição não é JSON válido' },
    notJsonType: { en: 'The request body must be JSON', 'pt-BR': 'O corpo da requisição deve ser JSON' },
    contentLength: { en: 'Content-Length does not match the body', 'pt-BR': 'Content-Length não corresponde ao corpo' },
    invalidValue: template({
      en: (p: { field: string; problem: Text }) => `Invalid value for ${p.field}: ${p.problem.en}`,
      'pt-BR': (p) => `Valor inválido para ${p.field}: ${p.problem['pt-BR']}`,
    }),
    invalidRequest: template({ en: (p: { summary: Text }) => `Invalid request: ${p.summary.en}`, 'pt-BR': (p) => `Requisição inválida: ${p.summary['pt-BR']}` }),
    invalidCard: template({ en: (p: { fields: string }) => `Invalid card: ${p.fields}`, 'pt-BR': (p) => `Cartão inválido: ${p.fields}` }),
    notANotification: template({ en: (p: { provider: string }) => `Not a ${p.provider} notification`, 'pt-BR': (p) => `Não é uma notificação de ${p.provider}` }),
    // The operator CLI's checks (companies/rules.ts, companies/service.ts).
    emptyName: { en: 'name must not be empty', 'pt-BR': 'o nome não pode ser vazio' },
    document: template({
      en: (p: { document: string; problem: Text }) => `document ${p.document} ${p.problem.en}`,
      'pt-BR': (p) => `o documento ${p.document} ${p.problem['pt-BR']}`,
    }),
    feeOutOfRange: template({
      en: (p: { key: string; max: number; unit: 'centavos' | 'basis points' }) => `${p.key} must be a whole number between 0 and ${p.max} ${p.unit}`,
      'pt-BR': (p) => `${p.key} deve ser um número inteiro entre 0 e ${p.max} ${p.unit}`,
    }),
    unknownScope: template({
      en: (p: { unknown: string; known: string }) => `unknown scope ${p.unknown}; known: ${p.known}`,
      'pt-BR': (p) => `escopo desconhecido ${p.unknown}; conhecidos: ${p.known}`,
    }),
    companyExists: template({
      en: (p: { document: string; id: string }) => `a company with document ${p.document} already exists (${p.id})`,
      'pt-BR': (p) => `já existe uma empresa com o documento ${p.document} (${p.id})`,
    }),
    accountExists: template({
      en: (p: { document: string }) => `an account with document ${p.document} already exists`,
      'pt-BR': (p) => `já existe uma conta com o documento ${p.document}`,
    }),
  },
  NOT_FOUND: {
    route: { en: 'No such route', 'pt-BR': 'Rota inexistente' },
    transaction: { en: 'Transaction not found', 'pt-BR': 'Transação não encontrada' },
    paymentIntent: { en: 'Payment intent not found', 'pt-BR': 'Intenção de pagamento não encontrada' },
    paymentLink: { en: 'Payment link not found', 'pt-BR': 'Link de pagamento não encontrado' },
    event: { en: 'Event not found', 'pt-BR': 'Evento não encontrado' },
    webhook: { en: 'Webhook not found', 'pt-BR': 'Webhook não encontrado' },
    refund: { en: 'Refund not found', 'pt-BR': 'Reembolso não encontrado' },
    delivery: { en: 'Delivery not found', 'pt-BR': 'Entrega não encontrada' },
    apiKey: { en: 'API key not found', 'pt-BR': 'Chave de API não encontrada' },
    eventToTest: {
      en: 'No event of the types this webhook receives yet: make a sale (in the sandbox, a Pix paid with Simulate payment) and send the test again',
      'pt-BR': 'Ainda não há evento dos tipos que este webhook recebe: faça uma venda (no sandbox, um Pix pago com Simular pagamento) e envie o teste de novo',
    },
    demoCompany: template({
      en: (p: { document: string }) => `This deployment has no demo company (document ${p.document}); the demo checkout is unavailable`,
      'pt-BR': (p) => `Esta instalação não tem a empresa de demonstração (documento ${p.document}); o checkout de demonstração está indisponível`,
    }),
    company: template({ en: (p: { id: string }) => `no company ${p.id}`, 'pt-BR': (p) => `não existe a empresa ${p.id}` }),
    activeKey: template({ en: (p: { id: string }) => `no active key ${p.id}`, 'pt-BR': (p) => `não existe a chave ativa ${p.id}` }),
    account: template({
      en: (p: { document: string }) => `no account with document ${p.document}; create it first`,
      'pt-BR': (p) => `não existe conta com o documento ${p.document}; crie-a antes`,
    }),
    invitation: { en: 'This invitation does not exist, was used or expired', 'pt-BR': 'Este convite não existe, já foi usado ou expirou' },
    member: { en: 'Member not found', 'pt-BR': 'Membro não encontrado' },
    membership: { en: 'You are not a member of this company', 'pt-BR': 'Você não é membro desta empresa' },
    memberByEmail: template({
      en: (p: { email: string; company: string }) => `${p.email} is not a member of ${p.company}`,
      'pt-BR': (p) => `${p.email} não é membro de ${p.company}`,
    }),
  },
  RATE_LIMITED: {
    signInLocked: template({
      en: (p: { minutes: number }) => `Too many failed sign-ins with this e-mail: it is locked; try again in ${p.minutes} min`,
      'pt-BR': (p) => `Tentativas de entrada sem sucesso demais com este e-mail: ele está bloqueado; tente novamente em ${p.minutes} min`,
    }),
    passwordCheckRunning: {
      en: 'A password of this account is being checked; wait for its answer before trying again',
      'pt-BR': 'Uma senha desta conta está sendo verificada; aguarde a resposta antes de tentar de novo',
    },
    perMinute: template({
      en: (p: { max: number; seconds: number }) => `Too many requests (${p.max} a minute); retry after ${p.seconds} s`,
      'pt-BR': (p) => `Requisições demais (${p.max} por minuto); tente novamente após ${p.seconds} s`,
    }),
    perSecond: template({
      en: (p: { max: number; seconds: number }) => `Rate limit of ${p.max} requests per second reached; retry after ${p.seconds} s`,
      'pt-BR': (p) => `Limite de ${p.max} requisições por segundo atingido; tente novamente após ${p.seconds} s`,
    }),
    exportRunning: {
      en: 'Another export of yours is still running: one at a time; wait for it to finish, then try again',
      'pt-BR': 'Outra exportação sua ainda está em andamento: uma por vez; aguarde o fim dela e tente novamente',
    },
    cardAttemptsFromAddress: {
      en: 'Too many card attempts from this address; wait a minute',
      'pt-BR': 'Tentativas de cartão demais deste endereço; aguarde um minuto',
    },
    cardAttemptsPerIntent: template({
      en: (p: { max: number }) => `At most ${p.max} card attempts per payment intent`,
      'pt-BR': (p) => `No máximo ${p.max} tentativas de cartão por intenção de pagamento`,
    }),
    cardOnTooManyPayments: {
      en: 'This card was tried on too many payments; wait before trying it again',
      'pt-BR': 'Este cartão foi tentado em pagamentos demais; aguarde antes de tentar de novo',
    },
  },
  SERVICE_UNAVAILABLE: {
    temporarily: {
      en: 'The service is temporarily unavailable; retry shortly',
      'pt-BR': 'O serviço está temporariamente indisponível; tente novamente em instantes',
    },
    database: { en: 'The database is unreachable', 'pt-BR': 'O banco de dados está inacessível' },
    noVaultKey: {
      en: 'The card vault has no encryption key yet; start the vault role',
      'pt-BR': 'O cofre de cartões ainda não tem chave de criptografia; inicie o papel vault',
    },
  },
  INTERNAL_ERROR: {
    unexpected: { en: 'An unexpected error occurred; it has been logged', 'pt-BR': 'Ocorreu um erro inesperado; ele foi registrado' },
  },
  IDEMPOTENCY_KEY_IN_USE: {
    running: {
      en: 'A request with this Idempotency-Key is still running; retry shortly',
      'pt-BR': 'Uma requisição com esta Idempotency-Key ainda está em andamento; tente novamente em instantes',
    },
    takenOver: { en: 'This Idempotency-Key was taken over by a retry', 'pt-BR': 'Esta Idempotency-Key foi assumida por uma nova tentativa' },
  },
  IDEMPOTENCY_KEY_REUSED: {
    otherRequest: {
      en: 'This Idempotency-Key was used with another request; use a new key',
      'pt-BR': 'Esta Idempotency-Key foi usada em outra requisição; use uma chave nova',
    },
  },
  INTENT_EXPIRED: {
    expired: { en: 'The payment intent expired; create another', 'pt-BR': 'A intenção de pagamento expirou; crie outra' },
  },
  INTENT_ALREADY_PROCESSED: {
    already: template({ en: (p: { status: string }) => `The payment intent is already ${p.status}`, 'pt-BR': (p) => `A intenção de pagamento já está ${p.status}` }),
    beingConfirmedByAnother: {
      en: 'The payment intent is being confirmed by another request',
      'pt-BR': 'A intenção de pagamento está sendo confirmada por outra requisição',
    },
    beingConfirmed: { en: 'The payment intent is being confirmed', 'pt-BR': 'A intenção de pagamento está sendo confirmada' },
    noLongerTakesCard: { en: 'The payment intent no longer takes a card', 'pt-BR': 'A intenção de pagamento não aceita mais cartão' },
  },
  TOKEN_REQUIRED: {
    card: { en: 'A card intent is confirmed with a vault token', 'pt-BR': 'Uma intenção de cartão é confirmada com um token do cofre' },
  },
  TICKET_EXPIRED: {
    withIntent: {
      en: 'The ticket expired with its payment intent; create a new intent',
      'pt-BR': 'O ticket expirou com sua intenção de pagamento; crie uma nova intenção',
    },
  },
  PROVIDER_ERROR: {
    intentFailed: {
      en: 'The acquirer did not answer; the payment intent is now FAILED. Create a new intent to retry.',
      'pt-BR': 'A adquirente não respondeu; a intenção de pagamento agora está FAILED. Crie uma nova intenção para tentar de novo.',
    },
    noAnswer: { en: 'The acquirer did not answer', 'pt-BR': 'A adquirente não respondeu' },
  },
  PAYMENT_METHOD_UNAVAILABLE: {
    method: template({
      en: (p: { method: string }) => `${p.method} payments are not available on this service`,
      'pt-BR': (p) => `Pagamentos com ${p.method} não estão disponíveis neste serviço`,
    }),
  },
  PAYMENT_LINK_UNAVAILABLE: {
    expired: { en: 'This payment link has expired', 'pt-BR': 'Este link de pagamento expirou' },
    canceled: { en: 'This payment link was canceled by the seller', 'pt-BR': 'Este link de pagamento foi cancelado pelo vendedor' },
    completed: { en: 'This payment link has taken all its payments', 'pt-BR': 'Este link de pagamento já recebeu todos os seus pagamentos' },
    busy: {
      en: 'Every payment this link takes is already paid or awaiting payment; try again later',
      'pt-BR': 'Todos os pagamentos que este link aceita já foram pagos ou aguardam pagamento; tente novamente mais tarde',
    },
  },
  TRANSACTION_NOT_PENDING: {
    notPending: template({
      en: (p: { status: string }) => `The transaction is ${p.status}; only a PENDING transaction can change`,
      'pt-BR': (p) => `A transação está ${p.status}; só uma transação PENDING pode mudar`,
    }),
    windowClosed: template({
      en: (p: { status: string }) => `The transaction is ${p.status} (its payment window closed); only a PENDING transaction can change`,
      'pt-BR': (p) => `A transação está ${p.status} (seu prazo de pagamento terminou); só uma transação PENDING pode mudar`,
    }),
    notPaid: template({
      en: (p: { status: string }) => `The transaction is ${p.status}; only a PAID transaction has receivables to settle`,
      'pt-BR': (p) => `A transação está ${p.status}; só uma transação PAID tem recebíveis a liquidar`,
    }),
  },
  TRANSACTION_NOT_REFUNDABLE: {
    boleto: {
      en: 'A boleto cannot be refunded: no rail gives money back through a boleto; pay the buyer back by Pix or bank transfer',
      'pt-BR': 'Um boleto não pode ser reembolsado: nenhum meio devolve dinheiro por boleto; devolva ao comprador por Pix ou transferência bancária',
    },
    notPaid: template({
      en: (p: { status: string }) => `The transaction is ${p.status}; only a PAID transaction can be refunded`,
      'pt-BR': (p) => `A transação está ${p.status}; só uma transação PAID pode ser reembolsada`,
    }),
    notCard: { en: 'Only a card transaction can be charged back', 'pt-BR': 'Só uma transação de cartão pode ter chargeback' },
  },
  REFUND_IN_PROGRESS: {
    card: {
      en: 'Another refund of this card transaction is still being processed; retry when it is SUCCEEDED or FAILED',
      'pt-BR': 'Outro reembolso desta transação de cartão ainda está em processamento; tente novamente quando estiver SUCCEEDED ou FAILED',
    },
  },
  REFUND_EXCEEDS_AVAILABLE: {
    nothingLeft: {
      en: 'Nothing is left to refund: every centavo of the sale is refunded or being refunded',
      'pt-BR': 'Não resta nada a reembolsar: todos os centavos da venda foram ou estão sendo reembolsados',
    },
    exceeds: template({
      en: (p: { leftCents: number }) => `The refund exceeds what is left to refund (${p.leftCents} centavos)`,
      'pt-BR': (p) => `O reembolso excede o que resta a reembolsar (${p.leftCents} centavos)`,
    }),
  },
  SPLIT_INVALID: {
    invalid: template({ en: (p: { summary: Text }) => `Invalid split: ${p.summary.en}`, 'pt-BR': (p) => `Divisão inválida: ${p.summary['pt-BR']}` }),
  },
  LAST_ADMIN: {
    lastAdmin: {
      en: 'A company needs at least one administrator: make another member an administrator first',
      'pt-BR': 'Uma empresa precisa de pelo menos um administrador: torne antes outro membro administrador',
    },
  },
  SPLIT_RECIPIENT_NOT_FOUND: {
    notApproved: { en: 'A split recipient is not an approved account', 'pt-BR': 'Um recebedor da divisão não é uma conta aprovada' },
  },
  WEBHOOK_URL_INVALID: {
    notAllowed: template({
      en: (p: { reason: Text }) => `The webhook URL is not allowed: ${p.reason.en}`,
      'pt-BR': (p) => `A URL do webhook não é permitida: ${p.reason['pt-BR']}`,
    }),
  },
  WEBHOOK_LIMIT_REACHED: {
    limit: template({
      en: (p: { max: number }) => `A company may have at most ${p.max} active webhooks; delete one first`,
      'pt-BR': (p) => `Uma empresa pode ter no máximo ${p.max} webhooks ativos; exclua um antes`,
    }),
  },
} satisfies { [C in ErrorCode]?: Record<string, Text | ((p: never) => Text)> };

/** A vault's refusal (VALIDATION_ERROR or PAYMENT_METHOD_UNAVAILABLE) whose body the API cannot read: an older vault's, say. */
export const VAULT_REFUSAL: Text = { en: 'Refused by the vault', 'pt-BR': 'Recusado pelo cofre' };
