/** The API guide (api-guide.ts) in Brazilian Portuguese: the reference page (GET /docs) shows it when the page is in Portuguese. */
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../lib/paging.js';
import { REFUND_EXAMPLE } from './api-guide.js';

export const API_GUIDE_PT_BR = `
Cobre compradores por cartão, Pix e boleto, divida cada venda entre contas e acompanhe os pagamentos por webhooks.

**Autenticação.** Toda rota /v2 recebe \`Authorization: Bearer <API_KEY>\`. Chaves de sandbox começam com \`svc_test_\`, chaves
de produção com \`svc_live_\`; uma chave do outro ambiente é recusada (401 UNAUTHORIZED, com \`WWW-Authenticate: Bearer\`).
Escopos: \`payments:read\`, \`payments:write\`, \`webhooks:read\`, \`webhooks:write\`; uma chave emitida sem escopos tem todos;
sem o escopo, 403 FORBIDDEN. \`payments:read\` contém os mais estreitos \`charges:read\` (intenções, transações, reembolsos),
\`links:read\` e \`receivables:read\`; \`payments:write\` contém \`charges:write\` (criar, confirmar, cancelar intenções),
\`refunds:write\` e \`links:write\`; as rotas de sandbox exigem o próprio \`payments:write\`. Uma chave criada no painel tem
no máximo os escopos que o papel de quem a criou pode conceder. Uma chave revogada é recusada em até 5 segundos.

**Erros.** Todo erro é \`{code, message, details?}\`; com \`Accept-Language: pt-BR\` as mensagens vêm em português
(\`code\` e \`field\` nunca mudam). \`details\` nomeia cada campo inválido (\`buyer.email\`,
\`splitRules[1].percentage\`, \`Idempotency-Key\`). Status: 400 VALIDATION_ERROR / TOKEN_REQUIRED (também JSON malformado e
campos desconhecidos no corpo), 401 UNAUTHORIZED / TICKET_EXPIRED, 403 FORBIDDEN, 404 NOT_FOUND (também um id de outra
empresa, um prefixo errado, uma rota desconhecida), 409 INTENT_ALREADY_PROCESSED / INTENT_EXPIRED / IDEMPOTENCY_KEY_IN_USE /
TRANSACTION_NOT_PENDING / PAYMENT_LINK_UNAVAILABLE (um link de pagamento expirado, cancelado ou esgotado) / TRANSACTION_NOT_REFUNDABLE
(reembolso ou chargeback de uma transação que não está PAID, ou de um boleto) / REFUND_EXCEEDS_AVAILABLE (no campo \`amountCents\`:
mais que o valor menos seus reembolsos PENDING e SUCCEEDED) / REFUND_IN_PROGRESS (uma transação de cartão já tem um reembolso
PENDING), 413 PAYLOAD_TOO_LARGE (corpos acima de 1 MiB), 422 SPLIT_INVALID / SPLIT_RECIPIENT_NOT_FOUND /
WEBHOOK_URL_INVALID / WEBHOOK_LIMIT_REACHED / IDEMPOTENCY_KEY_REUSED / PAYMENT_METHOD_UNAVAILABLE (uma forma que o operador
desligou, no campo \`paymentMethod\`), 429 RATE_LIMITED (com \`Retry-After\`),
500 INTERNAL_ERROR, 502 PROVIDER_ERROR, 503 SERVICE_UNAVAILABLE (com \`Retry-After\`). Um id no caminho com mais de 64
caracteres é 400 VALIDATION_ERROR no campo \`id\`.

**Idempotency-Key** (1–255 caracteres): obrigatória na confirmação e nos reembolsos, opcional nos outros POSTs. Mesma chave,
mesma rota e mesmo corpo: a primeira resposta é repetida byte a byte com \`Idempotent-Replayed: true\` e nada roda duas vezes.
Mesma chave com outra rota ou outro corpo: 422 IDEMPOTENCY_KEY_REUSED. Mesma chave enquanto a primeira requisição roda:
409 IDEMPOTENCY_KEY_IN_USE. Requisições recusadas antes de agir não são guardadas. As chaves são guardadas por 24 horas.

**Intenções de pagamento** expiram 5 minutos após a criação (\`expiresAt\`); a partir desse instante toda leitura mostra
EXPIRED, e uma confirmação responde 409 INTENT_EXPIRED. Uma transação Pix confirmada e não paga até
\`paymentDetails.pix.expiresAt\` (padrão 1 hora, \`pix.expiresInSeconds\` 60–604800), ou um boleto não pago até o fim do
vencimento + 3 dias (horário de São Paulo), vira CANCELED com um evento \`transaction.canceled\`.

**Listagens.** \`GET /v2/transactions\` recebe \`limit\` (1–${MAX_PAGE_SIZE}, padrão ${DEFAULT_PAGE_SIZE}), \`startingAfter\` (o último id
da página anterior), \`status\`, \`paymentMethod\`, \`referenceId\`, \`paymentLinkId\` (um id \`plink_\`), \`createdFrom\`,
\`createdTo\`; as mais novas primeiro; responde \`{data, hasMore}\`. \`GET /v2/payment-links\` pagina do mesmo jeito (\`limit\`,
\`startingAfter\`).

**Limite de requisições.** Por chave, por segundo (padrão 25 no sandbox, 100 em produção). Toda resposta traz
\`RateLimit-Limit\`, \`RateLimit-Remaining\` e \`RateLimit-Reset\`.

**Cartões.** Uma intenção de cartão responde REQUIRES_TOKEN com \`cardTokenization\` (vaultUrl, ticket, encryptionKey). A página
do comprador monta o \`SvcVault\` de \`{vaultUrl}/sdk.js\`; o cofre (origem própria; rotas /sdk.js, /hosted-fields, /keys,
/tokenize, sem chave de API) devolve um token \`vtk_\` de uso único, e o servidor do vendedor confirma com \`{"token": …}\`:
201 com a transação PAID, ou FAILED com \`paymentDetails.card.refusalCode\` e \`refusalMessage\` (uma recusa não é um erro HTTP).

**Links de pagamento.** \`POST /v2/payment-links\` (\`amountCents\`, \`description\`, \`paymentMethods\`, \`maxInstallments\` 1–12
para cartão, \`splitRules\`, \`expiresAt\` no futuro, \`maxPayments\` padrão sem limite, \`metadata\`, \`referenceId\`) responde
um link \`plink_\` com sua \`url\`: uma página hospedada (\`GET /pay/{id}\`, sem chave, em português com opção de inglês) onde os
compradores pagam por cartão (os campos do cofre), Pix ou boleto. \`status\` é ACTIVE, EXPIRED (a partir de \`expiresAt\`),
CANCELED (\`POST /v2/payment-links/{id}/cancel\`) ou COMPLETED (\`maxPayments\` vendas PAID); \`paymentsCount\` conta as vendas
PAID. Cada pagamento é uma intenção e uma transação com \`paymentLinkId\`. Uma venda PAID, uma PENDING ainda pagável e uma
confirmação em andamento ocupam cada uma uma vaga de \`maxPayments\`; toda confirmação de uma intenção do link trava o link e
as conta, então de dois compradores pagando a última vaga ao mesmo tempo um é cobrado e o outro recebe 409
PAYMENT_LINK_UNAVAILABLE antes de qualquer cobrança. Os endpoints da página (\`POST /pay/{id}/intents\`,
\`POST /pay/{id}/intents/{pi}/confirm\`, \`GET /pay/{id}/transactions/{trx}\`) exigem o \`X-Pay-Token\` da página e a sua
\`Origin\` (senão 403 FORBIDDEN) e têm limite de requisições por endereço e por link.

**Divisão e recebíveis.** \`splitRules\` dividem uma venda entre contas aprovadas (PERCENTAGE com no máximo duas casas
decimais, ou FIXED em centavos); o vendedor fica com o resto. Quando PAID, \`split.receivables\` lista uma linha por conta e
parcela com bruto, tarifa (repartida pelo maior resto), valor e \`expectedOn\` (dias úteis de São Paulo).
\`GET /v2/receivables\` os lista entre transações (filtros \`status\`, \`recipientDocument\`, \`expectedOnFrom\`, \`expectedOnTo\`).

**Reembolsos.** \`POST /v2/transactions/{id}/refunds\` (\`amountCents\` opcional: tudo o que resta; \`reason\` ≤ 255) reembolsa
uma venda PAID por cartão ou Pix, em quantos reembolsos forem precisos; ids \`rf_\`, status PENDING → SUCCEEDED ou FAILED;
\`GET /v2/refunds/{id}\`, \`GET /v2/transactions/{id}/refunds\`. Cartão: um cancelamento no adquirente, na hora. Pix: uma
devolução no PSP, assíncrona (PENDING até o PSP liquidá-la; o serviço a acompanha). Um boleto não pode ser reembolsado (nenhum
meio devolve dinheiro por boleto). A tarifa é devolvida pro rata: após reembolsos que somam R numa venda de valor A com tarifa
F, a tarifa retida é F − floor(F × R / A). A transação mostra \`refundedCents\` (reembolsos SUCCEEDED), \`feeCents\` (a tarifa
retida) e \`netAmountCents\` = A − R − \`feeCents\`; um reembolso de tudo o que resta a torna CANCELED (\`refund.succeeded\`,
depois \`transaction.canceled\`). Os recebíveis mudam quando um reembolso dá certo: as linhas PENDING diminuem (a última
parcela primeiro) e o que as linhas já pagas não cobrem vira uma linha de ajuste negativa (\`adjustment: "REFUND"\`,
\`refundId\`, parcela 0, com vencimento no próximo dia útil). Um cartão recusado (FAILED) ou uma venda cancelada antes do
pagamento mostra \`feeCents\` 0 e \`netAmountCents\` 0.

${REFUND_EXAMPLE}

**Webhooks.** Os cadastros recebem \`transaction.created\`, \`transaction.paid\`, \`transaction.canceled\`, \`refund.succeeded\` e
\`refund.failed\` (cujo \`data\` traz \`refund\` e \`transaction\`), assinados com \`X-Svc-Signature: v1=<hex>\`, o HMAC-SHA256
de \`<X-Svc-Timestamp>.<corpo bruto>\` com o segredo do cadastro. Em produção há novas tentativas após 1 min, 5 min, 30 min,
2 h e 12 h, cada uma até um quinto mais tarde, ao acaso, e mais tarde ainda quando um 429 ou 503 pede com \`Retry-After\` (até
12 h); o sandbox envia uma vez. Um cadastro cujas entregas falharam todas por 5 dias é desativado (\`status: disabled\`, um
evento \`webhook.disabled\` cujo \`data\` traz \`webhook\`); \`POST /v2/webhooks/{id}/enable\` envia o que aguardava.
\`GET /v2/events\`, \`GET /v2/webhooks/{id}/deliveries\` e \`POST /v2/events/{id}/resend\` ajudam a depurar um endpoint.

**Sandbox.** \`POST /v2/sandbox/transactions/{id}/pay\` marca uma transação PENDING como PAID; \`…/fail\` a cancela;
\`…/settle\` paga na hora os recebíveis de uma transação PAID; \`…/chargeback\` simula um chargeback de uma transação de
cartão PAID (CANCELED com \`chargedBackAt\` e \`chargedBackCents\`, recebíveis revertidos, a tarifa devolvida,
\`transaction.canceled\`; senão 409 TRANSACTION_NOT_REFUNDABLE). Intenções Pix e boleto de exatamente 50200 centavos deixam o
adquirente simulado mudo (502 PROVIDER_ERROR, intenção FAILED); os cartões de teste terminados em 0002 e 0069 são recusados,
0119 fica mudo.
`.trim();
