/**
 * Certificates for tests, made with the openssl command line in a temporary
 * folder (keys are never committed):
 * - a self-signed certificate for localhost / 127.0.0.1 (the webhook
 *   receiver; the service trusts it through NODE_EXTRA_CA_CERTS);
 * - a certificate authority with a server certificate and client
 *   certificates (mTLS): the local providers serve HTTPS with the server
 *   certificate, the connectors trust the CA and present the client one.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface CertPair {
  certFile: string;
  keyFile: string;
  cert: string;
  key: string;
}

export interface TestCa {
  dir: string;
  caFile: string;
  ca: string;
  server: CertPair;
  /** A client certificate the CA issued (the one a PSP gives its client). */
  client: CertPair;
  /** Another CA's client certificate: what a PSP must refuse. */
  stranger: CertPair;
  remove(): void;
}

/**
 * P-256 keys: a 2048-bit RSA key costs openssl a quarter of a second of CPU to
 * make, and each test CA makes five; TLS and mTLS work the same with ECDSA.
 */
const NEW_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'];

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

function pair(dir: string, name: string): CertPair {
  const certFile = path.join(dir, `${name}.pem`);
  const keyFile = path.join(dir, `${name}.key`);
  return { certFile, keyFile, cert: fs.readFileSync(certFile, 'utf8'), key: fs.readFileSync(keyFile, 'utf8') };
}

/** Issues `name` signed by the CA in `caName`, with the given extensions file content. */
function issue(dir: string, caName: string, name: string, subject: string, extensions: string): void {
  fs.writeFileSync(path.join(dir, `${name}.ext`), extensions);
  openssl(dir, ['req', ...NEW_KEY, '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject]);
  openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', `${caName}.pem`, '-CAkey', `${caName}.key`, '-CAcreateserial', '-out', `${name}.pem`, '-days', '2', '-extfile', `${name}.ext`]);
}

function selfSigned(dir: string, name: string, subject: string, extraArgs: string[] = []): void {
  openssl(dir, ['req', '-x509', ...NEW_KEY, '-nodes', '-keyout', `${name}.key`, '-out', `${name}.pem`, '-days', '2', '-subj', subject, ...extraArgs]);
}

export interface SelfSignedCert {
  dir: string;
  certFile: string;
  keyFile: string;
  cert: Buffer;
  key: Buffer;
  /** Removes the temp folder with the key and certificate. */
  remove(): void;
}

/** A certificate for IP 127.0.0.1 and DNS localhost, in a fresh temp folder. */
export async function createSelfSignedCert(): Promise<SelfSignedCert> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-tls-'));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    selfSigned(dir, 'cert', '/CN=localhost', ['-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost']);
  } catch (err) {
    remove();
    throw err;
  }
  const { certFile, keyFile } = pair(dir, 'cert');
  return { dir, certFile, keyFile, cert: fs.readFileSync(certFile), key: fs.readFileSync(keyFile), remove };
}

export function createTestCa(): TestCa {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-ca-'));
  selfSigned(dir, 'ca', '/CN=svc test CA');
  issue(dir, 'ca', 'server', '/CN=localhost', 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  issue(dir, 'ca', 'client', '/CN=svc test client', 'extendedKeyUsage=clientAuth\n');
  selfSigned(dir, 'other-ca', '/CN=another CA');
  issue(dir, 'other-ca', 'stranger', '/CN=stranger', 'extendedKeyUsage=clientAuth\n');
  const caFile = path.join(dir, 'ca.pem');
  return {
    dir,
    caFile,
    ca: fs.readFileSync(caFile, 'utf8'),
    server: pair(dir, 'server'),
    client: pair(dir, 'client'),
    stranger: pair(dir, 'stranger'),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
