/**
 * Reconciliation through the real Pix connector and the local PSP: a charge
 * just sold is not asked about at once (no buyer can have paid it yet, and at
 * every sale that was a GET /cob and three queries more), but one
 * RECONCILE_INTERVAL_SECONDS after it was sent, when a payment whose
 * notification was lost is found and applied.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { txidOf } from '../../src/modules/providers/bcb-pix/mapping.js';
import { engines } from '../helpers/db.js';
import { runWorkerStep } from '../helpers/app.js';
import { pixIntent } from '../helpers/fixtures.js';
import { startPixTestApp, type PixTestApp } from './pix-test-app.js';

const PSP = { clientId: 'svc-reconcile', clientSecret: `psp-${randomUUID()}`, pixKey: 'pagamentos@example.com' };
/** RECONCILE_INTERVAL_SECONDS's default. */
const INTERVAL_MS = 60_000;

for (const engine of engines()) {
  describe(`reconciliation of Pix charges at the local PSP (${engine})`, () => {
    let app: PixTestApp;
    before(async () => (app = await startPixTestApp(engine, PSP)));
    after(() => app.close());

    const cobReads = (txid: string) => app.psp.requests.filter((r) => r.method === 'GET' && r.path === `/cob/${txid}`).length;
    const statusOf = async (id: string): Promise<string> => (await app.t.call({ method: 'GET', url: `/v2/transactions/${id}` })).json<{ status: string }>().status;

    test('a charge just sold is first asked about one interval after it was sent; a payment found then is applied', async () => {
      const res = await app.t.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ confirm: true, referenceId: `rec-${randomUUID()}` }) });
      assert.equal(res.statusCode, 201, res.body);
      const { transaction } = res.json<{ transaction: { id: string } }>();
      const txid = txidOf(transaction.id);
      await app.psp.pay(txid, { notify: false });

      await runWorkerStep(app.t, 'reconcile-provider-charges');
      app.t.clock.advance(INTERVAL_MS - 1_000);
      await runWorkerStep(app.t, 'reconcile-provider-charges');
      assert.equal(cobReads(txid), 0, 'not asked about within the interval');
      assert.equal(await statusOf(transaction.id), 'PENDING');

      app.t.clock.advance(2_000);
      await runWorkerStep(app.t, 'reconcile-provider-charges');
      assert.equal(cobReads(txid), 1, 'asked about once the interval passed');
      assert.equal(await statusOf(transaction.id), 'PAID');
      assert.deepEqual(app.psp.violations, []);
    });
  });
}
