/**
 * The served hosted fields script (dist/web/vault/hosted-fields.js, built by
 * `npm run build`) run as the browser would run it: a classic script in a
 * fresh VM context with Web Crypto and TextEncoder but no document (so the
 * page itself stays off) and no Node globals. Returns its SvcHostedFields.
 */
import fs from 'node:fs';
import path from 'node:path';
import { webcrypto } from 'node:crypto';
import vm from 'node:vm';
import { WEB_ROOT } from '../../src/http/web-assets.js';

const HOSTED_FIELDS_SCRIPT = path.join(WEB_ROOT, 'vault/hosted-fields.js');

export function loadHostedFields(): Record<string, any> {
  if (!fs.existsSync(HOSTED_FIELDS_SCRIPT)) throw new Error(`${HOSTED_FIELDS_SCRIPT} is missing: run npm run build first`);
  const sandbox: Record<string, any> = { crypto: webcrypto, TextEncoder };
  vm.createContext(sandbox);
  vm.runInContext(fs.readFileSync(HOSTED_FIELDS_SCRIPT, 'utf8'), sandbox, { filename: HOSTED_FIELDS_SCRIPT });
  return sandbox.SvcHostedFields;
}
