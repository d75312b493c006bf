/** The environments and the refusal check the configuration's tests share (src/config*.test.ts). */
import assert from 'node:assert/strict';
import { ConfigError, loadConfig, type ConfigReader } from '../../src/config.js';

/** Production also needs its three keys: webhook secrets, the vault's master key, the internal key. */
const SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');
export const PRODUCTION = {
  SVC_ENV: 'production',
  WEBHOOK_SECRETS_KEY: SECRETS_KEY,
  VAULT_MASTER_KEY: Buffer.alloc(32, 8).toString('base64'),
  INTERNAL_KEY: Buffer.alloc(32, 9).toString('base64'),
  PIX_PROVIDER: 'disabled',
  CARD_PROVIDER: 'disabled',
  BOLETO_PROVIDER: 'disabled',
};

export function refusal(env: Record<string, string>, variable: string, reader: ConfigReader = 'serve', message = ''): void {
  assert.throws(
    () => loadConfig(env, reader),
    (err: unknown) => err instanceof ConfigError && err.variable === variable && err.message.startsWith(`${variable}: ${message}`),
    `${JSON.stringify(env)} should be refused by ${reader} naming ${variable}`,
  );
}
