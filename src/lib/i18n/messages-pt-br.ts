/**
 * The Portuguese (pt-BR) text of every English error text the service
 * writes, keyed by the English text itself with `{}` for each interpolated
 * value (in the same order in both languages). The key is the text as the
 * source writes it, so the source stays readable and a test
 * (test/api/localized-errors.test.ts) finds every text in the source and
 * fails when one has no entry here.
 */
export const PT_BR: Readonly<Record<string, string>> = {
  // Authentication and authorization
  'Missing API key: send Authorization: Bearer <API_KEY>': 'Chave de API ausente: envie Authorization: Bearer <API_KEY>',
  'Invalid API key': 'Chave de API inválida',
  'This key belongs to the other environment; this is the {} environment': 'Esta chave pertence ao outro ambiente; este é o ambiente {}',
  'This key lacks the {} scope': 'Esta chave não tem o escopo {}',
  'Internal route': 'Rota interna',
  'This request must come from the payment page': 'Esta requisição deve vir da página de pagamento',
  'The payment page is out of date: reload it': 'A página de pagamento está desatualizada: recarregue-a',
  'is missing, expired or not for this link': 'está ausente, expirou ou não é deste link',

  // HTTP framing
  'The request headers are larger than the limit': 'Os cabeçalhos da requisição excedem o limite',
  'The request method is not valid HTTP': 'O método da requisição não é HTTP válido',
  'is not a valid HTTP method': 'não é um método HTTP válido',
  'The request path is not valid HTTP': 'O caminho da requisição não é HTTP válido',
  'is not a valid URL': 'não é uma URL válida',
  'A request header is not valid HTTP': 'Um cabeçalho da requisição não é HTTP válido',
  'hold a character HTTP does not allow': 'contêm um caractere que o HTTP não permite',
  'The request was not received in time': 'A requisição não foi recebida a tempo',
  'was not complete in time': 'não chegou completa a tempo',
  'The request is not valid HTTP': 'A requisição não é HTTP válido',
  'is not valid HTTP/1.1': 'não é HTTP/1.1 válido',
  'No such route': 'Rota inexistente',
  'The request body is not valid JSON': 'O corpo da requisição não é JSON válido',
  'is not valid JSON': 'não é JSON válido',
  'The request body is larger than the limit': 'O corpo da requisição excede o limite',
  'The request body must be JSON': 'O corpo da requisição deve ser JSON',
  'must be application/json': 'deve ser application/json',
  'Content-Length does not match the body': 'Content-Length não corresponde ao corpo',
  'does not match the body': 'não corresponde ao corpo',
  'The request is malformed': 'A requisição está malformada',
  'The request URL is not valid percent-encoding': 'A URL da requisição não tem codificação percentual válida',
  'must not contain the NUL character': 'não pode conter o caractere NUL',
  'must be valid Unicode (a lone surrogate was found)': 'deve ser Unicode válido (foi encontrado um surrogate isolado)',
  'is nested deeper than {} levels': 'tem mais de {} níveis de aninhamento',
  'has a key that {}': 'tem uma chave que {}',
  'must be absent: this route takes no body': 'deve estar ausente: esta rota não recebe corpo',

  // Service state
  'The service is temporarily unavailable; retry shortly': 'O serviço está temporariamente indisponível; tente novamente em instantes',
  'An unexpected error occurred; it has been logged': 'Ocorreu um erro inesperado; ele foi registrado',
  'The database is unreachable': 'O banco de dados está inacessível',
  'Too many requests ({} a minute); retry after {} s': 'Requisições demais ({} por minuto); tente novamente após {} s',
  'Rate limit of {} requests per second reached; retry after {} s': 'Limite de {} requisições por segundo atingido; tente novamente após {} s',

  // Validation: composed messages and schema keywords
  'Invalid value for {}: {}': 'Valor inválido para {}: {}',
  'Invalid request: {}': 'Requisição inválida: {}',
  'Invalid split: {}': 'Divisão inválida: {}',
  'Invalid card: {}': 'Cartão inválido: {}',
  'is required': 'é obrigatório',
  'is not a known field': 'não é um campo conhecido',
  'must be {}': 'deve ser {}',
  'must be one of {}': 'deve ser um de {}',
  'must be at most {} characters': 'deve ter no máximo {} caracteres',
  'must be at least {} characters': 'deve ter no mínimo {} caracteres',
  'must be at most {}': 'deve ser no máximo {}',
  'must be at least {}': 'deve ser no mínimo {}',
  'must be a valid {}': 'deve ser um valor válido do formato {}',
  'must match the pattern {}': 'deve seguir o padrão {}',
  'must have at least {} items': 'deve ter no mínimo {} itens',
  'must have at most {} items': 'deve ter no máximo {} itens',
  'must not repeat an item': 'não pode repetir um item',
  'must have at most {} keys': 'deve ter no máximo {} chaves',
  'has a key that is not allowed': 'tem uma chave não permitida',
  'does not match any allowed form': 'não corresponde a nenhuma forma permitida',
  'is invalid': 'é inválido',
  'is required on this route': 'é obrigatório nesta rota',
  'must be 1 to 255 characters': 'deve ter de 1 a 255 caracteres',
  'must be at most 64 characters': 'deve ter no máximo 64 caracteres',

  // Not found
  '{} not found': '{} não encontrado',
  'Transaction not found': 'Transação não encontrada',
  'Payment intent not found': 'Intenção de pagamento não encontrada',
  'Payment link not found': 'Link de pagamento não encontrado',
  'Event not found': 'Evento não encontrado',
  'Webhook not found': 'Webhook não encontrado',
  'Refund not found': 'Reembolso não encontrado',
  'This deployment has no demo company (document {}); the demo checkout is unavailable':
    'Esta instalação não tem a empresa de demonstração (documento {}); o checkout de demonstração está indisponível',

  // Idempotency
  'A request with this Idempotency-Key is still running; retry shortly': 'Uma requisição com esta Idempotency-Key ainda está em andamento; tente novamente em instantes',
  'This Idempotency-Key was taken over by a retry': 'Esta Idempotency-Key foi assumida por uma nova tentativa',
  'This Idempotency-Key was used with another request; use a new key': 'Esta Idempotency-Key foi usada em outra requisição; use uma chave nova',
  'was used with another route or body': 'foi usada com outra rota ou outro corpo',

  // Payment intents
  'is not a valid CPF or CNPJ (check digits)': 'não é um CPF ou CNPJ válido (dígitos verificadores)',
  'true is only valid for PIX and BOLETO; card intents are confirmed with a vault token':
    'true só vale para PIX e BOLETO; intenções de cartão são confirmadas com um token do cofre',
  'is required for {}': 'é obrigatório para {}',
  'is required for BOLETO': 'é obrigatório para BOLETO',
  'must be at least {} for BOLETO': 'deve ser no mínimo {} para BOLETO',
  'must be 1 for PIX and BOLETO': 'deve ser 1 para PIX e BOLETO',
  'is only valid with PIX': 'só vale com PIX',
  'is only valid with BOLETO': 'só vale com BOLETO',
  'must be a date YYYY-MM-DD': 'deve ser uma data AAAA-MM-DD',
  'must not be in the past': 'não pode estar no passado',
  'must be at most {} days ahead': 'deve estar no máximo {} dias à frente',
  'The payment intent expired; create another': 'A intenção de pagamento expirou; crie outra',
  'The payment intent is already {}': 'A intenção de pagamento já está {}',
  'The payment intent is being confirmed by another request': 'A intenção de pagamento está sendo confirmada por outra requisição',
  'The payment intent is being confirmed': 'A intenção de pagamento está sendo confirmada',
  'A card intent is confirmed with a vault token': 'Uma intenção de cartão é confirmada com um token do cofre',
  'is required for CREDIT_CARD': 'é obrigatório para CREDIT_CARD',
  'The card vault has no encryption key yet; start the vault role': 'O cofre de cartões ainda não tem chave de criptografia; inicie o papel vault',
  'The acquirer did not answer; the payment intent is now FAILED. Create a new intent to retry.':
    'A adquirente não respondeu; a intenção de pagamento agora está FAILED. Crie uma nova intenção para tentar de novo.',
  'The acquirer did not answer': 'A adquirente não respondeu',
  'Refused by the vault': 'Recusado pelo cofre',
  '{} payments are not available on this service': 'Pagamentos com {} não estão disponíveis neste serviço',
  '{} is switched off by the operator': '{} está desligado pelo operador',

  // Payment links
  'must be 1 unless paymentMethods includes CREDIT_CARD': 'deve ser 1, a menos que paymentMethods inclua CREDIT_CARD',
  'must be at least {} when paymentMethods includes BOLETO': 'deve ser no mínimo {} quando paymentMethods inclui BOLETO',
  'must be in the future': 'deve estar no futuro',
  'This payment link has expired': 'Este link de pagamento expirou',
  'This payment link was canceled by the seller': 'Este link de pagamento foi cancelado pelo vendedor',
  'This payment link has taken all its payments': 'Este link de pagamento já recebeu todos os seus pagamentos',
  'Every payment this link takes is already paid or awaiting payment; try again later':
    'Todos os pagamentos que este link aceita já foram pagos ou aguardam pagamento; tente novamente mais tarde',

  // Transactions and refunds
  'The transaction is {}; only a PENDING transaction can change': 'A transação está {}; só uma transação PENDING pode mudar',
  'The transaction is {} ({}); only a PENDING transaction can change': 'A transação está {} ({}); só uma transação PENDING pode mudar',
  'its payment window closed': 'seu prazo de pagamento terminou',
  'The transaction is {}; only a PAID transaction has receivables to settle': 'A transação está {}; só uma transação PAID tem recebíveis a liquidar',
  'A boleto cannot be refunded: no rail gives money back through a boleto; pay the buyer back by Pix or bank transfer':
    'Um boleto não pode ser reembolsado: nenhum meio devolve dinheiro por boleto; devolva ao comprador por Pix ou transferência bancária',
  'The transaction is {}; only a PAID transaction can be refunded': 'A transação está {}; só uma transação PAID pode ser reembolsada',
  'Another refund of this card transaction is still being processed; retry when it is SUCCEEDED or FAILED':
    'Outro reembolso desta transação de cartão ainda está em processamento; tente novamente quando estiver SUCCEEDED ou FAILED',
  'Nothing is left to refund: every centavo of the sale is refunded or being refunded':
    'Não resta nada a reembolsar: todos os centavos da venda foram ou estão sendo reembolsados',
  'The refund exceeds what is left to refund ({} centavos)': 'O reembolso excede o que resta a reembolsar ({} centavos)',
  "must be at most {}: the sale's amount less its PENDING and SUCCEEDED refunds": 'deve ser no máximo {}: o valor da venda menos seus reembolsos PENDING e SUCCEEDED',
  'Only a card transaction can be charged back': 'Só uma transação de cartão pode ter chargeback',

  // Split
  'at most {} split rules': 'no máximo {} regras de divisão',
  // TAX_ID_SHAPE (lib/tax-id.ts), the value of "must be {}"
  'a CPF (11 digits) or a CNPJ (14 characters) without dots, slash or dash: digits only, or digits and capital letters for the alphanumeric CNPJ (12 characters, then 2 check digits)':
    'um CPF (11 dígitos) ou um CNPJ (14 caracteres) sem pontos, barra ou hífen: somente dígitos, ou dígitos e letras maiúsculas no CNPJ alfanumérico (12 caracteres e 2 dígitos verificadores)',
  'required with type PERCENTAGE': 'obrigatório com o tipo PERCENTAGE',
  'not allowed with type PERCENTAGE': 'não permitido com o tipo PERCENTAGE',
  'must be greater than 0 and at most 100': 'deve ser maior que 0 e no máximo 100',
  'at most 2 decimal places': 'no máximo 2 casas decimais',
  'required with type FIXED': 'obrigatório com o tipo FIXED',
  'not allowed with type FIXED': 'não permitido com o tipo FIXED',
  'must be an integer number of centavos greater than 0': 'deve ser um número inteiro de centavos maior que 0',
  "the seller's own document cannot be a split recipient": 'o próprio documento do vendedor não pode ser recebedor da divisão',
  'recipient appears in more than one rule': 'o recebedor aparece em mais de uma regra',
  'sum of percentages exceeds 100': 'a soma dos percentuais excede 100',
  'sum of slices exceeds the sale amount': 'a soma das partes excede o valor da venda',
  'not an approved account in the service': 'não é uma conta aprovada no serviço',
  'A split recipient is not an approved account': 'Um recebedor da divisão não é uma conta aprovada',

  // Webhooks
  'The webhook URL is not allowed: {}': 'A URL do webhook não é permitida: {}',
  'A company may have at most {} active webhooks; delete one first': 'Uma empresa pode ter no máximo {} webhooks ativos; exclua um antes',
  'URL is too long': 'a URL é longa demais',
  'backslashes are not allowed in a URL; use /': 'barras invertidas não são permitidas numa URL; use /',
  'not a valid URL': 'não é uma URL válida',
  'scheme must be https': 'o esquema deve ser https',
  'credentials in the URL are not allowed': 'credenciais na URL não são permitidas',
  'port must be 443 or {} and above': 'a porta deve ser 443 ou {} e acima',
  'URL has no host': 'a URL não tem host',
  'IP address is not public': 'o endereço IP não é público',
  'localhost is not allowed': 'localhost não é permitido',
  'host does not resolve': 'o host não resolve',
  'Not a {} notification': 'Não é uma notificação de {}',
  'is not a {} notification': 'não é uma notificação de {}',

  // Card vault
  'The ticket expired with its payment intent; create a new intent': 'O ticket expirou com sua intenção de pagamento; crie uma nova intenção',
  'The payment intent no longer takes a card': 'A intenção de pagamento não aceita mais cartão',
  'is not a valid ticket': 'não é um ticket válido',
  'is not a card token of this payment intent': 'não é um token de cartão desta intenção de pagamento',
  'expired with its payment intent': 'expirou com sua intenção de pagamento',
  'could not be decrypted with this key': 'não pôde ser decifrado com esta chave',
  'was not encrypted for this ticket; encrypt the card again': 'não foi cifrado para este ticket; cifre o cartão de novo',
  'Too many card attempts from this address; wait a minute': 'Tentativas de cartão demais deste endereço; aguarde um minuto',
  'At most {} card attempts per payment intent': 'No máximo {} tentativas de cartão por intenção de pagamento',
  'This card was tried on too many payments; wait before trying it again': 'Este cartão foi tentado em pagamentos demais; aguarde antes de tentar de novo',
  'is not a current vault key; fetch /keys again': 'não é uma chave atual do cofre; busque /keys de novo',
  'does not hold a JSON card': 'não contém um cartão em JSON',
  'was already tokenized; encrypt the card again': 'já foi tokenizado; cifre o cartão de novo',
  'must be a JSON object with the card fields': 'deve ser um objeto JSON com os campos do cartão',
  'must be a string of digits': 'deve ser um texto de dígitos',
  'must contain only digits': 'deve conter apenas dígitos',
  'must have {} to {} digits': 'deve ter de {} a {} dígitos',
  'is not a valid card number': 'não é um número de cartão válido',
  'is from a card brand that is not accepted': 'é de uma bandeira de cartão não aceita',
  'must have {} digits for {}': 'deve ter {} dígitos para {}',
  'must be a string': 'deve ser um texto',
  'must have {} to {} characters': 'deve ter de {} a {} caracteres',
  "may contain only letters, spaces and . ' -": "pode conter apenas letras, espaços e . ' -",
  'must be an integer from 1 to 12': 'deve ser um inteiro de 1 a 12',
  'must be a 4-digit year': 'deve ser um ano de 4 dígitos',
  'card has expired': 'o cartão expirou',
  'must be at most {} years ahead': 'deve estar no máximo {} anos à frente',
  'must have 3 or 4 digits': 'deve ter 3 ou 4 dígitos',
  'is not a card field': 'não é um campo do cartão',
  'contains a field that is not a card field': 'contém um campo que não é do cartão',

  // Boleto lines
  'a digitable line has 47 digits': 'uma linha digitável tem 47 dígitos',
  'field {} check digit does not match': 'o dígito verificador do campo {} não confere',
  'general (mod 11) check digit does not match': 'o dígito verificador geral (módulo 11) não confere',

  // Companies (operator CLI)
  'name must not be empty': 'o nome não pode ser vazio',
  'document {} {}': 'o documento {} {}',
  'cannot be combined with startingAfter': 'não pode ser combinado com startingAfter',
  '{} must be a whole number between 0 and {}': '{} deve ser um número inteiro entre 0 e {}',
  'unknown scope {}; known: {}': 'escopo desconhecido {}; conhecidos: {}',
  'a company with document {} already exists ({})': 'já existe uma empresa com o documento {} ({})',
  'no company {}': 'não existe a empresa {}',
  'no active key {}': 'não existe a chave ativa {}',
  'an account with document {} already exists': 'já existe uma conta com o documento {}',
  'no account with document {}; create it first': 'não existe conta com o documento {}; crie-a antes',
};
