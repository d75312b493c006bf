/** The configuration of the payment connectors: which provider each method uses, and each real one's variables. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { loadConfig } from './config.js';
import { PRODUCTION, refusal } from '../test/helpers/config-env.js';

test('the connectors default to the simulated provider in the sandbox', () => {
  const config = loadConfig({});
  assert.deepEqual(config.providers, { pix: 'simulated', card: 'simulated', boleto: 'simulated' });
  assert.equal(config.bcbPix, undefined);
  assert.equal(config.cielo, undefined);
});

test('production refuses the simulated provider of each method, naming its variable, unless it is switched off', () => {
  for (const variable of ['PIX_PROVIDER', 'CARD_PROVIDER', 'BOLETO_PROVIDER']) {
    refusal({ ...PRODUCTION, [variable]: '' }, variable);
    refusal({ ...PRODUCTION, [variable]: 'simulated' }, variable);
  }
  assert.deepEqual(loadConfig(PRODUCTION).providers, { pix: 'disabled', card: 'disabled', boleto: 'disabled' });
  refusal({ PIX_PROVIDER: 'cielo' }, 'PIX_PROVIDER');
  refusal({ CARD_PROVIDER: 'bcb-api-pix' }, 'CARD_PROVIDER');
});

const PIX_PSP = {
  PIX_PROVIDER: 'bcb-api-pix',
  PIX_API_URL: 'https://psp.example/api/v2/',
  PIX_OAUTH_URL: 'https://psp.example/oauth/token',
  PIX_CLIENT_ID: 'client',
  PIX_CLIENT_SECRET: 'secret',
  PIX_CERT_FILE: 'certs/client.pem',
  PIX_KEY_FILE: 'certs/client.key',
  PIX_KEY: '12345678000195',
};
const CIELO = {
  CARD_PROVIDER: 'cielo',
  BOLETO_PROVIDER: 'cielo',
  CIELO_API_URL: 'https://api.cieloecommerce.cielo.com.br',
  CIELO_QUERY_URL: 'https://apiquery.cieloecommerce.cielo.com.br/',
  CIELO_MERCHANT_ID: 'merchant',
  CIELO_MERCHANT_KEY: 'key',
  CIELO_BOLETO_PROVIDER: 'Bradesco2',
};

test('a real connector needs every one of its variables, each named when missing', () => {
  const config = loadConfig({ ...PRODUCTION, ...PIX_PSP, ...CIELO, PIX_WEBHOOK_URL: 'https://api.example.com/v2/provider-notifications/bcb-api-pix' });
  assert.deepEqual(config.providers, { pix: 'bcb-api-pix', card: 'cielo', boleto: 'cielo' });
  assert.equal(config.bcbPix?.apiUrl, 'https://psp.example/api/v2');
  assert.equal(config.bcbPix?.certFile, path.resolve('certs/client.pem'));
  assert.equal(config.cielo?.queryUrl, 'https://apiquery.cieloecommerce.cielo.com.br');
  assert.equal(config.cielo?.boletoProvider, 'Bradesco2');
  for (const variable of Object.keys(PIX_PSP).filter((v) => v !== 'PIX_PROVIDER')) refusal({ ...PIX_PSP, [variable]: '' }, variable);
  for (const variable of Object.keys(CIELO).filter((v) => !v.endsWith('_PROVIDER') || v === 'CIELO_BOLETO_PROVIDER')) refusal({ ...CIELO, [variable]: '' }, variable);
  refusal({ ...PIX_PSP, PIX_API_URL: 'http://psp.example/api/v2' }, 'PIX_API_URL');
  refusal({ ...PIX_PSP, PIX_WEBHOOK_URL: 'http://api.example.com/hook' }, 'PIX_WEBHOOK_URL');
  // Card alone through Cielo needs no boleto bank.
  const cardOnly = { ...CIELO, BOLETO_PROVIDER: 'simulated', CIELO_BOLETO_PROVIDER: '' };
  assert.equal(loadConfig(cardOnly).cielo?.merchantId, 'merchant');
});
