/*
 * The parameters the mounting page passes in this frame's URL fragment, and
 * the seller's style option. Why a module: the parent page controls these
 * values, so this is the page's trust boundary; every value is checked here,
 * pure and tested, before the page uses it.
 */
import { plainLabel } from '../submit-label.js';

function decode(s) {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

function parseJsonObject(s) {
  if (!s) return {};
  try {
    const v = JSON.parse(s);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

/** Returns {ok, ticket, keyId, origin, locale, hide, submitLabel, style, placeholders}; ok false when unusable. */
export function parseFragment(hash) {
  const p = {};
  String(hash || '').replace(/^#/, '').split('&').forEach((pair) => {
    const i = pair.indexOf('=');
    if (i > 0) {
      const k = decode(pair.slice(0, i));
      const v = decode(pair.slice(i + 1));
      if (k && v !== null && !Object.prototype.hasOwnProperty.call(p, k)) p[k] = v;
    }
  });
  // The origin results are posted to. It must be an exact http(s) origin
  // (scheme://host[:port], nothing else): a bad value disables the page
  // rather than falling back to '*'.
  const origin = /^https?:\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d{1,5})?$/.test(p.origin || '') ? p.origin : null;
  const ticket = p.ticket && p.ticket.length <= 4096 ? p.ticket : null;
  const keyId = p.keyId && p.keyId.length <= 256 ? p.keyId : null;
  return {
    ok: !!(origin && ticket && keyId),
    ticket,
    keyId,
    origin,
    locale: p.locale === 'en' ? 'en' : 'pt-BR',
    hide: p.hide === '1' || p.hide === 'true',
    // The seller's words for the button, or null for the frame's own.
    submitLabel: plainLabel(p.submitLabel),
    style: parseJsonObject(p.style),
    placeholders: parseJsonObject(p.placeholders),
  };
}

const COLOR = /^(#[0-9a-f]{3,8}|(rgba?|hsla?)\([\d\s.,%/deg]+\)|[a-z]{3,30})$/i;
const SIZE = /^\d{1,3}(\.\d{1,3})?(px|rem|em|pt|%)$/;
// Names of installed fonts only: no parentheses, so no url()/local(). The
// CSP has no font-src either, so nothing can be downloaded anyway.
const FONT = /^[\w\s,'"-]{1,200}$/;
const STYLE_RULES = {
  fontFamily: ['--svc-font', FONT],
  fontSize: ['--svc-font-size', SIZE],
  color: ['--svc-color', COLOR],
  placeholderColor: ['--svc-placeholder', COLOR],
  backgroundColor: ['--svc-bg', COLOR],
  borderColor: ['--svc-border', COLOR],
  borderRadius: ['--svc-radius', SIZE],
  errorColor: ['--svc-error', COLOR],
  accentColor: ['--svc-accent', COLOR],
};

/** Maps the seller's style option to CSS custom properties, dropping anything unsafe. */
export function sanitizeStyle(style) {
  const out = {};
  for (const k in STYLE_RULES) {
    const v = style && style[k];
    if (typeof v === 'string' && STYLE_RULES[k][1].test(v.trim())) out[STYLE_RULES[k][0]] = v.trim();
  }
  return out;
}
