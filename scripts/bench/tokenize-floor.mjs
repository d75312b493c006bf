// The floor under the vault's POST /tokenize on this machine: what a bare Node server spends on the
// parts of a tokenize that no implementation can leave out, measured the way the tokenize part measures
// the vault (its CPU per token, beside `openssl speed rsa2048`). Per request it reads the JSON body,
// opens the card's JWE (RSA-OAEP-256 and A256GCM, node:crypto), runs two one-row prepared statements
// (an attempt counter, then the token) and answers JSON: no framework, no validation, no sealing, no
// ticket, no limits. Run as `node tokenize-floor.mjs DATABASE_URL`, it listens on a free loopback port
// and prints `{ port, body }`, a request body to send again and again.
import crypto from 'node:crypto';
import http from 'node:http';
import { CompactEncrypt } from 'jose';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.argv[2], max: 8 });
await pool.query(`CREATE TABLE IF NOT EXISTS floor_attempts (key text PRIMARY KEY, n int NOT NULL);
                  CREATE TABLE IF NOT EXISTS floor_tokens (id text PRIMARY KEY, last4 text NOT NULL)`);

const { publicKey, privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const card = { number: '4111111111111111', holderName: 'Floor', expMonth: 12, expYear: 2030, cvv: '123' };
const encryptedCard = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(card)))
  .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: 'floor' })
  .encrypt(publicKey);
const body = JSON.stringify({ ticket: crypto.randomBytes(200).toString('base64url'), keyId: 'floor', encryptedCard });

function openJwe(jwe) {
  const [header, key, iv, ciphertext, tag] = jwe.split('.');
  const cek = crypto.privateDecrypt({ key: privateKey, oaepHash: 'sha256', padding: crypto.constants.RSA_PKCS1_OAEP_PADDING }, Buffer.from(key, 'base64url'));
  const decipher = crypto.createDecipheriv('aes-256-gcm', cek, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(header));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return JSON.parse(Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString());
}

async function tokenize(raw) {
  const input = JSON.parse(raw);
  const opened = openJwe(input.encryptedCard);
  const token = `vtk_${crypto.randomBytes(32).toString('base64url')}`;
  await pool.query({
    name: 'attempt',
    text: 'INSERT INTO floor_attempts (key, n) VALUES ($1, 1) ON CONFLICT (key) DO UPDATE SET n = floor_attempts.n + 1 RETURNING n',
    values: [token.slice(0, 24)], // a row per attempt, as the vault's counters are spread over addresses and tickets
  });
  await pool.query({ name: 'token', text: 'INSERT INTO floor_tokens (id, last4) VALUES ($1, $2)', values: [token, opened.number.slice(-4)] });
  return JSON.stringify({ token, brand: 'VISA', last4: opened.number.slice(-4), expMonth: opened.expMonth, expYear: opened.expYear });
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    tokenize(Buffer.concat(chunks).toString()).then(
      (answer) => res.writeHead(201, { 'content-type': 'application/json' }).end(answer),
      (err) => res.writeHead(500).end(String(err)),
    );
  });
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port, body })));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
