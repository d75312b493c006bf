/**
 * A test app whose Pix goes through the real connector (bcb-api-pix) to a
 * local PSP over mutual TLS, with the test's database and manual clock.
 */
import type { Engine } from '../helpers/db.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { createTestCa, type TestCa } from '../helpers/test-ca.js';
import { BcbPixProvider } from '../../src/modules/providers/bcb-pix/index.js';
import { startLocalPsp, type LocalPsp, type LocalPspOptions } from './local-psp.js';

export interface PixTestApp {
  t: TestApp;
  psp: LocalPsp;
  ca: TestCa;
  close(): Promise<void>;
}

export async function startPixTestApp(engine: Engine, client: Pick<LocalPspOptions, 'clientId' | 'clientSecret' | 'pixKey'>): Promise<PixTestApp> {
  const ca = createTestCa();
  const psp = await startLocalPsp({ ca, ...client });
  let pix: BcbPixProvider | undefined;
  const t = await startTestApp(engine, {
    provider: (base) =>
      (pix = new BcbPixProvider(
        { apiUrl: psp.apiUrl, oauthUrl: psp.oauthUrl, ...client, certFile: ca.client.certFile, keyFile: ca.client.keyFile, caFile: undefined, webhookUrl: undefined },
        { db: base.db, clock: base.clock, extraCa: ca.ca },
      )),
  });
  return {
    t,
    psp,
    ca,
    close: async () => {
      await t.close();
      await pix?.close();
      await psp.close();
      ca.remove();
    },
  };
}
