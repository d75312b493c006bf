/**
 * Secrets at rest (webhook signing secrets, stored responses that contain
 * them): AES-256-GCM with a fresh 96-bit nonce per record. The sealed form is
 * `v1.<base64 nonce|ciphertext|tag>`; the version lets the scheme change later.
 */
import { createCipheriv, createDecipheriv } from 'node:crypto';
import { pooledRandomBytes } from './pooled-random.js';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export interface Sealer {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

export function aesGcmSealer(key: Buffer): Sealer {
  if (key.length !== 32) throw new Error('an AES-256-GCM key is 32 bytes');
  return {
    seal(plaintext) {
      const nonce = pooledRandomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `v1.${Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64')}`;
    },
    open(sealed) {
      if (!sealed.startsWith('v1.')) throw new Error('unknown sealed format');
      const raw = Buffer.from(sealed.slice(3), 'base64');
      const nonce = raw.subarray(0, NONCE_BYTES);
      const tag = raw.subarray(raw.length - TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', key, nonce);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}
