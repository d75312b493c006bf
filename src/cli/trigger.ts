/**
 * `svc trigger <event type> [--api-key K] [--api-url URL]`: makes a sandbox
 * payment through the HTTP API that emits that event, and prints what it
 * made. Every flow starts with a Pix intent created and confirmed at once
 * (transaction.created); then the sandbox pay route (transaction.paid), the
 * sandbox fail route (transaction.canceled) or a full refund of the paid
 * sale (refund.succeeded, and transaction.canceled after it). The sandbox
 * provider accepts every refund, so refund.failed cannot be triggered.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { EVENT_TYPES, type EventType } from '../modules/events/rules.js';
import { SANDBOX_BUYER } from '../modules/payment-intents/schemas.js';
import { apiTarget, callApi, ClientUsageError, type ApiTarget } from './api-client.js';

export const TRIGGER_USAGE = `usage: svc trigger <event type> [--api-key K] [--api-url URL]
  event types: transaction.created, transaction.paid, transaction.canceled, refund.succeeded (sandbox keys)`;

interface Transaction {
  id: string;
  status: string;
  amountCents: number;
  version: number;
}

type Step = (api: ApiTarget, trx: Transaction) => Promise<{ line: string; trx?: Transaction }>;

const pay: Step = async (api, trx) => {
  const paid = await callApi<Transaction>(api, 'POST', `/v2/sandbox/transactions/${trx.id}/pay`);
  return { line: `paid ${paid.id} (transaction.paid)`, trx: paid };
};

const FLOWS: Partial<Record<EventType, Step[]>> = {
  'transaction.created': [],
  'transaction.paid': [pay],
  'transaction.canceled': [
    async (api, trx) => {
      const canceled = await callApi<Transaction>(api, 'POST', `/v2/sandbox/transactions/${trx.id}/fail`);
      return { line: `canceled ${canceled.id} through the sandbox fail route (transaction.canceled)`, trx: canceled };
    },
  ],
  'refund.succeeded': [
    pay,
    async (api, trx) => {
      const refund = await callApi<{ id: string; status: string; amountCents: number }>(api, 'POST', `/v2/transactions/${trx.id}/refunds`, {});
      return { line: `refund ${refund.id} of ${trx.id}: ${refund.status}, ${refund.amountCents} centavos (refund.succeeded, then transaction.canceled)` };
    },
  ],
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
  if (!steps) throw new ClientUsageError(`${type} cannot be triggered: the sandbox provider accepts every refund`);
  const api = apiTarget(values, env);

  const intent = await callApi<{ id: string; transaction: Transaction }>(api, 'POST', '/v2/payment-intents', {
    amountCents: 10_000,
    paymentMethod: 'PIX',
    referenceId: `svc-trigger-${randomUUID()}`,
    description: `svc trigger ${type}`,
    buyer: SANDBOX_BUYER,
    confirm: true,
  });
  let trx = intent.transaction;
  print(`payment intent ${intent.id}: Pix of 10000 centavos, transaction ${trx.id} PENDING (transaction.created)`);
  for (const step of steps) {
    const done = await step(api, trx);
    print(done.line);
    trx = done.trx ?? trx;
  }
  return 0;
}
