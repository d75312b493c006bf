/**
 * `svc trigger <event type> [--api-key K] [--api-url URL]`: makes a sandbox
 * payment through the HTTP API that emits that event, and prints what it
 * made. Every flow starts with a Pix intent created and confirmed at once
 * (transaction.created); then the sandbox pay route (transaction.paid), the
 * sandbox fail route (transaction.canceled) or a full refund of the paid
 * sale (refund.succeeded, and transaction.canceled after it). The sandbox
 * provider accepts every refund, so refund.failed cannot be triggered, nor
 * webhook.disabled, which takes days of failed deliveries.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { EVENT_TYPES, type EventType } from '../modules/events/rules.js';
import { SANDBOX_BUYER } from '../modules/payment-intents/schemas.js';
import { apiTarget, callApi, ClientUsageError, type ApiTarget } from './api-client.js';
import { SVC } from './invocation.js';

export const TRIGGER_USAGE = `usage: ${SVC} trigger <event type> [--api-key K] [--api-url URL]
  event types: transaction.created, transaction.paid, transaction.canceled, refund.succeeded (sandbox keys)`;

/** One step of a flow: acts on the transaction and answers the line to print. */
type Step = (api: ApiTarget, trxId: string) => Promise<string>;

const pay: Step = async (api, trxId) => {
  const paid = await callApi<{ id: string }>(api, 'POST', `/v2/sandbox/transactions/${trxId}/pay`);
  return `paid ${paid.id} (transaction.paid)`;
};

const FLOWS: Partial<Record<EventType, Step[]>> = {
  'transaction.created': [],
  'transaction.paid': [pay],
  'transaction.canceled': [
    async (api, trxId) => {
      const canceled = await callApi<{ id: string }>(api, 'POST', `/v2/sandbox/transactions/${trxId}/fail`);
      return `canceled ${canceled.id} through the sandbox fail route (transaction.canceled)`;
    },
  ],
  'refund.succeeded': [
    pay,
    async (api, trxId) => {
      const refund = await callApi<{ id: string; status: string; amountCents: number }>(api, 'POST', `/v2/transactions/${trxId}/refunds`, {});
      return `refund ${refund.id} of ${trxId}: ${refund.status}, ${refund.amountCents} centavos (refund.succeeded, then transaction.canceled)`;
    },
  ],
};

/** Why an event type has no flow. */
const UNTRIGGERABLE: Partial<Record<EventType, string>> = {
  'refund.failed': 'the sandbox provider accepts every refund',
  'payment_intent.reversed': 'a card approval must reach the acquirer after its intent was recorded FAILED',
  'webhook.disabled': 'a registration is disabled after its deliveries all failed for WEBHOOK_DISABLE_AFTER (5 days by default)',
};

export async function trigger(argv: string[], env: NodeJS.ProcessEnv, print: (line: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { 'api-key': { type: 'string' }, 'api-url': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    print(TRIGGER_USAGE);
    return 0;
  }
  const type = positionals[0] as EventType | undefined;
  if (!type || positionals.length > 1) throw new ClientUsageError('give one event type');
  if (!(EVENT_TYPES as readonly string[]).includes(type)) throw new ClientUsageError(`unknown event type: ${type}`);
  const steps = FLOWS[type];
  if (!steps) throw new ClientUsageError(`${type} cannot be triggered: ${UNTRIGGERABLE[type] ?? 'no sandbox flow makes it'}`);
  const api = apiTarget(values, env);

  const intent = await callApi<{ id: string; transaction: { id: string } }>(api, 'POST', '/v2/payment-intents', {
    amountCents: 10_000,
    paymentMethod: 'PIX',
    referenceId: `svc-trigger-${randomUUID()}`,
    description: `svc trigger ${type}`,
    buyer: SANDBOX_BUYER,
    confirm: true,
  });
  const trxId = intent.transaction.id;
  print(`payment intent ${intent.id}: Pix of 10000 centavos, transaction ${trxId} PENDING (transaction.created)`);
  for (const step of steps) print(await step(api, trxId));
  return 0;
}
