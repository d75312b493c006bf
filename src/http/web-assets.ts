/**
 * Browser files (the vault's SDK and hosted fields, the demo checkout) as
 * built into dist/web/ by scripts/build-web.mjs (`npm run build`): scripts
 * bundled from the ES modules under web/, HTML and CSS copied. Read once,
 * served with a strong ETag and a 5-minute public cache; a matching
 * If-None-Match is 304.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** dist/web at the repository root: the same relative path from dist/http (build) and .test-build/src/http (tests, see scripts/test.mjs). */
export const WEB_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'web');

interface Asset {
  body: Buffer;
  etag: string;
}

const cache = new Map<string, Asset>();

function loadAsset(relative: string): Asset {
  let asset = cache.get(relative);
  if (!asset) {
    const file = path.join(WEB_ROOT, relative);
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: run npm run build (it bundles web/ into dist/web)`);
    const body = fs.readFileSync(file);
    asset = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    cache.set(relative, asset);
  }
  return asset;
}

/** A page template cut at its `{{slot}}` markers: text at even indexes, slot names at odd ones. */
const templates = new Map<string, string[]>();
const SLOT = /\{\{(\w+)\}\}/;

/**
 * A built page template (HTML) with each `{{slot}}` filled from `values`,
 * assembled by joining the template's pieces around the values. Never
 * String.prototype.replace: a replacement string reads `$&`, `$'` and `` $` ``
 * in a value as instructions, so a seller's `$'` would paste the rest of the
 * template into the page. Each value must already be escaped for the place
 * its slot is in; a slot without a value is a bug of ours and throws.
 */
export function fillTemplate(relative: string, values: Readonly<Record<string, string>>): string {
  let parts = templates.get(relative);
  if (!parts) {
    parts = loadAsset(relative).body.toString('utf8').split(SLOT);
    templates.set(relative, parts);
  }
  return parts
    .map((part, i) => {
      if (i % 2 === 0) return part;
      const value = Object.hasOwn(values, part) ? values[part] : undefined;
      if (value === undefined) throw new Error(`${relative}: no value for the slot {{${part}}}`);
      return value;
    })
    .join('');
}

export function serveAsset(request: FastifyRequest, reply: FastifyReply, relative: string, contentType: string): FastifyReply {
  const asset = loadAsset(relative);
  reply.header('Cache-Control', 'public, max-age=300').header('ETag', asset.etag).header('X-Content-Type-Options', 'nosniff');
  const match = request.headers['if-none-match'];
  if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === asset.etag)) return reply.code(304).send();
  return reply.type(contentType).send(asset.body);
}

/** What every page of ours allows besides its scripts and frames: its own styles, images and requests; no form posts, base, plugins or framing. */
export const PAGE_POLICY_BASE = [
  "connect-src 'self'",
  "img-src 'self' data:",
  "style-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
];

/**
 * The Content-Security-Policy of a checkout page (the demo's, a payment
 * link's): its scripts (`'self'` files, or one response's nonce) and the
 * vault's SDK and card frame, and PAGE_POLICY_BASE.
 */
export function checkoutPagePolicy(publicVaultUrl: string, scripts: { self: true } | { nonce: string }): string {
  const vault = new URL(publicVaultUrl).origin;
  const own = 'nonce' in scripts ? `'nonce-${scripts.nonce}'` : "'self'";
  return [
    // A nonce page loads nothing by default; the demo's other files come from its own origin.
    'nonce' in scripts ? "default-src 'none'" : "default-src 'self'",
    `script-src ${own} ${vault}`,
    `frame-src ${vault}`,
    ...PAGE_POLICY_BASE,
  ].join('; ');
}
