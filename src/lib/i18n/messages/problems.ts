/**
 * What is wrong with one field (`details[].message`), found by its kind,
 * English and Brazilian Portuguese side by side. The field itself is never
 * part of the text: it is the detail's `field`.
 */
import { template, type Text } from '../text.js';

export const PROBLEMS = {
  // What Node's HTTP parser and Fastify refuse, and the input guard (http/input-guard.ts).
  method: { en: 'is not a valid HTTP method', 'pt-BR': 'não é um método HTTP válido' },
  url: { en: 'is not a valid URL', 'pt-BR': 'não é uma URL válida' },
  headerCharacter: { en: 'hold a character HTTP does not allow', 'pt-BR': 'contêm um caractere que o HTTP não permite' },
  notInTime: { en: 'was not complete in time', 'pt-BR': 'não chegou completa a tempo' },
  notHttp: { en: 'is not valid HTTP/1.1', 'pt-BR': 'não é HTTP/1.1 válido' },
  notJson: { en: 'is not valid JSON', 'pt-BR': 'não é JSON válido' },
  notJsonType: { en: 'must be application/json', 'pt-BR': 'deve ser application/json' },
  contentLength: { en: 'does not match the body', 'pt-BR': 'não corresponde ao corpo' },
  nul: { en: 'must not contain the NUL character', 'pt-BR': 'não pode conter o caractere NUL' },
  loneSurrogate: { en: 'must be valid Unicode (a lone surrogate was found)', 'pt-BR': 'deve ser Unicode válido (foi encontrado um surrogate isolado)' },
  nestedDeeper: template({
    en: (p: { levels: number }) => `is nested deeper than ${p.levels} levels`,
    'pt-BR': (p) => `tem mais de ${p.levels} níveis de aninhamento`,
  }),
  tooManyValues: template({ en: (p: { limit: number }) => `has more than ${p.limit} keys and array items`, 'pt-BR': (p) => `tem mais de ${p.limit} chaves e itens de lista` }),
  key: template({ en: (p: { problem: Text }) => `has a key that ${p.problem.en}`, 'pt-BR': (p) => `tem uma chave que ${p.problem['pt-BR']}` }),
  noBody: { en: 'must be absent: this route takes no body', 'pt-BR': 'deve estar ausente: esta rota não recebe corpo' },
  requiredOnRoute: { en: 'is required on this route', 'pt-BR': 'é obrigatório nesta rota' },
  idempotencyKeyLength: { en: 'must be 1 to 255 characters', 'pt-BR': 'deve ter de 1 a 255 caracteres' },
  idempotencyKeyReused: { en: 'was used with another route or body', 'pt-BR': 'foi usada com outra rota ou outro corpo' },
  pageToken: { en: 'is missing, expired or not for this link', 'pt-BR': 'está ausente, expirou ou não é deste link' },
  // A dashboard key's scopes, capped by its creator's role (users/roles.ts).
  scopesAboveRole: template({
    en: (p: { scopes: string }) => `holds scopes your role cannot grant: ${p.scopes}`,
    'pt-BR': (p) => `tem escopos que seu papel não pode conceder: ${p.scopes}`,
  }),
  dashboardToken: { en: "is missing or not this session's", 'pt-BR': 'está ausente ou não é desta sessão' },
  // The dashboard's people (modules/users).
  passwordConfirmation: { en: 'does not match the password', 'pt-BR': 'não confere com a senha' },
  totpCode: { en: 'is not the code the app shows now', 'pt-BR': 'não é o código que o aplicativo mostra agora' },
  noTotpEnrolment: { en: 'needs an enrolment first (POST /account/totp)', 'pt-BR': 'precisa antes de uma inscrição (POST /account/totp)' },
  totpAlreadyOn: { en: 'two-step verification is already on', 'pt-BR': 'a verificação em duas etapas já está ativa' },
  passwordRepetitive: {
    en: 'is too repetitive (one character or a short part repeated, or a run like abcdef or 123456): choose a phrase of your own',
    'pt-BR': 'é repetitiva demais (um caractere ou um trecho curto repetido, ou uma sequência como abcdef ou 123456): escolha uma frase sua',
  },
  passwordHoldsEmail: { en: 'must not contain your e-mail address or its name part', 'pt-BR': 'não pode conter o seu e-mail nem o nome antes do @' },
  passwordCommon: {
    en: 'is one of the most common passwords (a common word with digits or symbols around it counts): choose a phrase of your own',
    'pt-BR': 'é uma das senhas mais comuns (uma palavra comum com números ou símbolos em volta também conta): escolha uma frase sua',
  },
  alreadyMember: { en: 'is already a member of this company', 'pt-BR': 'já é membro desta empresa' },
  email: { en: 'must be an e-mail address', 'pt-BR': 'deve ser um endereço de e-mail' },

  // Schema keywords (http/validation.ts) and the rules worded like them.
  required: { en: 'is required', 'pt-BR': 'é obrigatório' },
  unknownField: { en: 'is not a known field', 'pt-BR': 'não é um campo conhecido' },
  mustBe: template({ en: (p: { what: string }) => `must be ${p.what}`, 'pt-BR': (p) => `deve ser ${p.what}` }),
  oneOf: template({ en: (p: { values: string }) => `must be one of ${p.values}`, 'pt-BR': (p) => `deve ser um de ${p.values}` }),
  maxLength: template({ en: (p: { limit: number }) => `must be at most ${p.limit} characters`, 'pt-BR': (p) => `deve ter no máximo ${p.limit} caracteres` }),
  minLength: template({ en: (p: { limit: number }) => `must be at least ${p.limit} characters`, 'pt-BR': (p) => `deve ter no mínimo ${p.limit} caracteres` }),
  maximum: template({ en: (p: { limit: number }) => `must be at most ${p.limit}`, 'pt-BR': (p) => `deve ser no máximo ${p.limit}` }),
  minimum: template({ en: (p: { limit: number }) => `must be at least ${p.limit}`, 'pt-BR': (p) => `deve ser no mínimo ${p.limit}` }),
  format: template({ en: (p: { format: string }) => `must be a valid ${p.format}`, 'pt-BR': (p) => `deve ser um valor válido do formato ${p.format}` }),
  pattern: template({ en: (p: { pattern: string }) => `must match the pattern ${p.pattern}`, 'pt-BR': (p) => `deve seguir o padrão ${p.pattern}` }),
  minItems: template({ en: (p: { limit: number }) => `must have at least ${p.limit} items`, 'pt-BR': (p) => `deve ter no mínimo ${p.limit} itens` }),
  maxItems: template({ en: (p: { limit: number }) => `must have at most ${p.limit} items`, 'pt-BR': (p) => `deve ter no máximo ${p.limit} itens` }),
  uniqueItems: { en: 'must not repeat an item', 'pt-BR': 'não pode repetir um item' },
  maxProperties: template({ en: (p: { limit: number }) => `must have at most ${p.limit} keys`, 'pt-BR': (p) => `deve ter no máximo ${p.limit} chaves` }),
  propertyNames: { en: 'has a key that is not allowed', 'pt-BR': 'tem uma chave não permitida' },
  noAllowedForm: { en: 'does not match any allowed form', 'pt-BR': 'não corresponde a nenhuma forma permitida' },
  invalid: { en: 'is invalid', 'pt-BR': 'é inválido' },
  notWithStartingAfter: { en: 'cannot be combined with startingAfter', 'pt-BR': 'não pode ser combinado com startingAfter' },

  // Tax ids (lib/tax-id.ts).
  taxIdShape: {
    en: 'must be a CPF (11 digits) or a CNPJ (14 characters) without dots, slash or dash: digits only, or digits and capital letters for the alphanumeric CNPJ (12 characters, then 2 check digits)',
    'pt-BR':
      'deve ser um CPF (11 dígitos) ou um CNPJ (14 caracteres) sem pontos, barra ou hífen: somente dígitos, ou dígitos e letras maiúsculas no CNPJ alfanumérico (12 caracteres e 2 dígitos verificadores)',
  },
  taxIdCheckDigits: { en: 'is not a valid CPF or CNPJ (check digits)', 'pt-BR': 'não é um CPF ou CNPJ válido (dígitos verificadores)' },

  // Payment intents and links.
  confirmWithoutCard: {
    en: 'true is only valid for PIX and BOLETO; card intents are confirmed with a vault token',
    'pt-BR': 'true só vale para PIX e BOLETO; intenções de cartão são confirmadas com um token do cofre',
  },
  requiredFor: template({ en: (p: { method: string }) => `is required for ${p.method}`, 'pt-BR': (p) => `é obrigatório para ${p.method}` }),
  boletoMinimum: template({ en: (p: { limit: number }) => `must be at least ${p.limit} for BOLETO`, 'pt-BR': (p) => `deve ser no mínimo ${p.limit} para BOLETO` }),
  oneInstallment: { en: 'must be 1 for PIX and BOLETO', 'pt-BR': 'deve ser 1 para PIX e BOLETO' },
  onlyWith: template({ en: (p: { method: string }) => `is only valid with ${p.method}`, 'pt-BR': (p) => `só vale com ${p.method}` }),
  date: { en: 'must be a date YYYY-MM-DD', 'pt-BR': 'deve ser uma data AAAA-MM-DD' },
  dateBetween: template({
    en: (p: { first: string; last: string }) => `must be a date from ${p.first} to ${p.last}`,
    'pt-BR': (p) => `deve ser uma data de ${p.first} a ${p.last}`,
  }),
  past: { en: 'must not be in the past', 'pt-BR': 'não pode estar no passado' },
  daysAhead: template({ en: (p: { limit: number }) => `must be at most ${p.limit} days ahead`, 'pt-BR': (p) => `deve estar no máximo ${p.limit} dias à frente` }),
  switchedOff: template({
    en: (p: { method: string }) => `${p.method} is switched off by the operator`,
    'pt-BR': (p) => `${p.method} está desligado pelo operador`,
  }),
  linkInstallments: { en: 'must be 1 unless paymentMethods includes CREDIT_CARD', 'pt-BR': 'deve ser 1, a menos que paymentMethods inclua CREDIT_CARD' },
  linkBoletoMinimum: template({
    en: (p: { limit: number }) => `must be at least ${p.limit} when paymentMethods includes BOLETO`,
    'pt-BR': (p) => `deve ser no mínimo ${p.limit} quando paymentMethods inclui BOLETO`,
  }),
  future: { en: 'must be in the future', 'pt-BR': 'deve estar no futuro' },
  refundLeft: template({
    en: (p: { limit: number }) => `must be at most ${p.limit}: the sale's amount less its PENDING and SUCCEEDED refunds`,
    'pt-BR': (p) => `deve ser no máximo ${p.limit}: o valor da venda menos seus reembolsos PENDING e SUCCEEDED`,
  }),
  notANotification: template({ en: (p: { provider: string }) => `is not a ${p.provider} notification`, 'pt-BR': (p) => `não é uma notificação de ${p.provider}` }),

  // Split rules (split/rules.ts).
  splitRules: template({ en: (p: { limit: number }) => `at most ${p.limit} split rules`, 'pt-BR': (p) => `no máximo ${p.limit} regras de divisão` }),
  requiredWithType: template({ en: (p: { type: string }) => `required with type ${p.type}`, 'pt-BR': (p) => `obrigatório com o tipo ${p.type}` }),
  notAllowedWithType: template({ en: (p: { type: string }) => `not allowed with type ${p.type}`, 'pt-BR': (p) => `não permitido com o tipo ${p.type}` }),
  percentage: { en: 'must be greater than 0 and at most 100', 'pt-BR': 'deve ser maior que 0 e no máximo 100' },
  twoDecimals: { en: 'at most 2 decimal places', 'pt-BR': 'no máximo 2 casas decimais' },
  positiveCentavos: { en: 'must be an integer number of centavos greater than 0', 'pt-BR': 'deve ser um número inteiro de centavos maior que 0' },
  sellerAsRecipient: { en: "the seller's own document cannot be a split recipient", 'pt-BR': 'o próprio documento do vendedor não pode ser recebedor da divisão' },
  repeatedRecipient: { en: 'recipient appears in more than one rule', 'pt-BR': 'o recebedor aparece em mais de uma regra' },
  percentagesOver100: { en: 'sum of percentages exceeds 100', 'pt-BR': 'a soma dos percentuais excede 100' },
  slicesOverAmount: { en: 'sum of slices exceeds the sale amount', 'pt-BR': 'a soma das partes excede o valor da venda' },
  notApprovedAccount: { en: 'not an approved account in the service', 'pt-BR': 'não é uma conta aprovada no serviço' },

  // Webhook URLs (webhooks/url-guard.ts).
  urlTooLong: { en: 'URL is too long', 'pt-BR': 'a URL é longa demais' },
  backslashes: { en: 'backslashes are not allowed in a URL; use /', 'pt-BR': 'barras invertidas não são permitidas numa URL; use /' },
  notAUrl: { en: 'not a valid URL', 'pt-BR': 'não é uma URL válida' },
  https: { en: 'scheme must be https', 'pt-BR': 'o esquema deve ser https' },
  credentials: { en: 'credentials in the URL are not allowed', 'pt-BR': 'credenciais na URL não são permitidas' },
  port: template({ en: (p: { min: number }) => `port must be 443 or ${p.min} and above`, 'pt-BR': (p) => `a porta deve ser 443 ou ${p.min} e acima` }),
  noHost: { en: 'URL has no host', 'pt-BR': 'a URL não tem host' },
  notPublic: { en: 'IP address is not public', 'pt-BR': 'o endereço IP não é público' },
  localhost: { en: 'localhost is not allowed', 'pt-BR': 'localhost não é permitido' },
  localhostElsewhere: { en: 'localhost name resolves to a non-loopback address', 'pt-BR': 'o nome localhost resolve para um endereço que não é de loopback' },
  resolvesNotPublic: { en: 'host resolves to a non-public address', 'pt-BR': 'o host resolve para um endereço não público' },
  unresolved: { en: 'host does not resolve', 'pt-BR': 'o host não resolve' },

  // The card vault: tickets, keys and tokens (vault/tokenize.ts, card-jwe.ts, authorize.ts).
  ticket: { en: 'is not a valid ticket', 'pt-BR': 'não é um ticket válido' },
  otherIntentToken: { en: 'is not a card token of this payment intent', 'pt-BR': 'não é um token de cartão desta intenção de pagamento' },
  tokenExpired: { en: 'expired with its payment intent', 'pt-BR': 'expirou com sua intenção de pagamento' },
  undecryptable: { en: 'could not be decrypted with this key', 'pt-BR': 'não pôde ser decifrado com esta chave' },
  otherTicket: { en: 'was not encrypted for this ticket; encrypt the card again', 'pt-BR': 'não foi cifrado para este ticket; cifre o cartão de novo' },
  staleKey: { en: 'is not a current vault key; fetch /keys again', 'pt-BR': 'não é uma chave atual do cofre; busque /keys de novo' },
  notJsonCard: { en: 'does not hold a JSON card', 'pt-BR': 'não contém um cartão em JSON' },
  tokenized: { en: 'was already tokenized; encrypt the card again', 'pt-BR': 'já foi tokenizado; cifre o cartão de novo' },

  // Card fields (vault/card.ts): never the card's digits, only what is wrong with them.
  cardObject: { en: 'must be a JSON object with the card fields', 'pt-BR': 'deve ser um objeto JSON com os campos do cartão' },
  digitString: { en: 'must be a string of digits', 'pt-BR': 'deve ser um texto de dígitos' },
  onlyDigits: { en: 'must contain only digits', 'pt-BR': 'deve conter apenas dígitos' },
  digitCount: template({
    en: (p: { min: number; max: number }) => `must have ${p.min} to ${p.max} digits`,
    'pt-BR': (p) => `deve ter de ${p.min} a ${p.max} dígitos`,
  }),
  cardNumber: { en: 'is not a valid card number', 'pt-BR': 'não é um número de cartão válido' },
  brand: { en: 'is from a card brand that is not accepted', 'pt-BR': 'é de uma bandeira de cartão não aceita' },
  digitsForBrand: template({
    en: (p: { digits: string; brand: string }) => `must have ${p.digits} digits for ${p.brand}`,
    'pt-BR': (p) => `deve ter ${p.digits} dígitos para ${p.brand}`,
  }),
  string: { en: 'must be a string', 'pt-BR': 'deve ser um texto' },
  characterCount: template({
    en: (p: { min: number; max: number }) => `must have ${p.min} to ${p.max} characters`,
    'pt-BR': (p) => `deve ter de ${p.min} a ${p.max} caracteres`,
  }),
  holderName: { en: "may contain only letters, spaces and . ' -", 'pt-BR': "pode conter apenas letras, espaços e . ' -" },
  month: { en: 'must be an integer from 1 to 12', 'pt-BR': 'deve ser um inteiro de 1 a 12' },
  year: { en: 'must be a 4-digit year', 'pt-BR': 'deve ser um ano de 4 dígitos' },
  cardExpired: { en: 'card has expired', 'pt-BR': 'o cartão expirou' },
  yearsAhead: template({ en: (p: { limit: number }) => `must be at most ${p.limit} years ahead`, 'pt-BR': (p) => `deve estar no máximo ${p.limit} anos à frente` }),
  cvvLength: { en: 'must have 3 or 4 digits', 'pt-BR': 'deve ter 3 ou 4 dígitos' },
  notCardField: { en: 'is not a card field', 'pt-BR': 'não é um campo do cartão' },
  nonCardField: { en: 'contains a field that is not a card field', 'pt-BR': 'contém um campo que não é do cartão' },
} satisfies Record<string, Text | ((p: never) => Text)>;
