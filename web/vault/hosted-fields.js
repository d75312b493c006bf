/*
 * Hosted card fields: the page inside the iframe that SvcVault.mount()
 * creates (GET /hosted-fields on the vault origin).
 *
 * This is the only browser code that sees card digits. It validates them,
 * encrypts them for the vault (compact JWE, RSA-OAEP-256 + A256GCM), calls
 * POST /tokenize on its own origin and hands the parent page nothing but
 * {token, brand, last4}.
 *
 * The first half is pure (no DOM) and exported as globalThis.SvcHostedFields
 * so tests can run it under Node; the DOM wiring runs only when a document
 * exists. Plain JavaScript, no dependencies, no build step, and nothing that
 * the page's CSP forbids (no inline script or style, no eval).
 */
(function (root) {
  'use strict';

  var CHANNEL = 'svc-vault';

  // ------------------------------------------------------------------
  // Card rules (pure)
  // ------------------------------------------------------------------

  // Elo BIN ranges (first six digits, inclusive). They overlap prefixes that
  // would otherwise read as Visa (4…), Mastercard/Discover (5…, 65…), so Elo
  // is checked first.
  var ELO = [
    [401178, 401179], [431274, 431274], [438935, 438935], [451416, 451416],
    [457393, 457393], [457631, 457632], [504175, 504175], [506699, 506778],
    [509000, 509999], [627780, 627780], [636297, 636297], [636368, 636368],
    [650031, 650033], [650035, 650051], [650405, 650439], [650485, 650538],
    [650541, 650598], [650700, 650718], [650720, 650727], [650901, 650978],
    [651652, 651679], [655000, 655019], [655021, 655058]
  ];

  // lengths: accepted numbers of digits (ascending); cvv: digits of the
  // security code; gaps: where the formatted number gets a space.
  var BRANDS = {
    elo: { name: 'Elo', lengths: [16], cvv: 3 },
    hipercard: { name: 'Hipercard', lengths: [13, 16, 19], cvv: 3 },
    amex: { name: 'American Express', lengths: [15], cvv: 4, gaps: [4, 10] },
    diners: { name: 'Diners Club', lengths: [14, 16, 19], cvv: 3 },
    jcb: { name: 'JCB', lengths: [16, 17, 18, 19], cvv: 3 },
    discover: { name: 'Discover', lengths: [16, 17, 18, 19], cvv: 3 },
    mastercard: { name: 'Mastercard', lengths: [16], cvv: 3 },
    visa: { name: 'Visa', lengths: [13, 16, 19], cvv: 3 }
  };
  var UNKNOWN = { name: '', lengths: [13, 14, 15, 16, 17, 18, 19], cvv: 0 };
  var DEFAULT_GAPS = [4, 8, 12, 16];

  function digitsOnly(value) {
    return String(value == null ? '' : value).replace(/\D/g, '');
  }

  function isElo(digits) {
    if (digits.length < 6) return false;
    var bin = +digits.slice(0, 6);
    for (var i = 0; i < ELO.length; i++) {
      if (bin >= ELO[i][0] && bin <= ELO[i][1]) return true;
    }
    return false;
  }

  /** Brand id from the digits typed so far, or null. Order matters. */
  function detectBrand(number) {
    var d = digitsOnly(number);
    if (!d) return null;
    if (isElo(d)) return 'elo';
    if (/^(606282|3841)/.test(d)) return 'hipercard'; // before Diners (38) and Discover (60)
    if (/^3[47]/.test(d)) return 'amex';
    if (/^(30[0-5]|3[689])/.test(d)) return 'diners';
    if (/^35(2[89]|[3-8])/.test(d)) return 'jcb';
    if (/^(6011|64[4-9]|65|622(12[6-9]|1[3-9]\d|[2-8]\d\d|9[01]\d|92[0-5]))/.test(d)) return 'discover';
    if (/^(5[1-5]|2(22[1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720))/.test(d)) return 'mastercard';
    if (/^4/.test(d)) return 'visa';
    return null;
  }

  function brandInfo(brand) {
    return BRANDS[brand] || UNKNOWN;
  }

  function luhnValid(number) {
    var d = String(number == null ? '' : number);
    if (!/^\d{2,}$/.test(d)) return false;
    var sum = 0;
    for (var i = d.length - 1, dbl = false; i >= 0; i--, dbl = !dbl) {
      var n = d.charCodeAt(i) - 48;
      if (dbl) {
        n *= 2;
        if (n > 9) n -= 9;
      }
      sum += n;
    }
    return sum % 10 === 0;
  }

  function maxLength(brand) {
    var l = brandInfo(brand).lengths;
    return l[l.length - 1];
  }

  /** Groups the digits as printed on the card: Amex 4-6-5, Diners 36 4-6-4, else 4-4-4-4-3. */
  function formatNumber(number, brand) {
    var d = digitsOnly(number);
    if (brand === undefined) brand = detectBrand(d);
    d = d.slice(0, maxLength(brand));
    var gaps = brandInfo(brand).gaps || (brand === 'diners' && /^36/.test(d) ? [4, 10] : DEFAULT_GAPS);
    var out = '';
    for (var i = 0; i < d.length; i++) {
      if (i > 0 && gaps.indexOf(i) >= 0) out += ' ';
      out += d.charAt(i);
    }
    return out;
  }

  /** "MM/AA" as typed; a lone month digit above 1 becomes "0N"; MM/YYYY (autofill) becomes MM/YY. */
  function formatExpiry(value) {
    var raw = String(value == null ? '' : value);
    var month;
    var rest;
    var m = /^\s*(\d{1,2})\s*[/\-.]\s*(\d*)/.exec(raw);
    if (m) {
      month = m[1].length === 1 ? '0' + m[1] : m[1];
      rest = m[2];
    } else {
      var d = digitsOnly(raw);
      if (d.length === 1 && d > '1') d = '0' + d;
      month = d.slice(0, 2);
      rest = d.slice(2);
    }
    if (rest.length >= 4 && rest.slice(0, 2) === '20') rest = rest.slice(2);
    rest = rest.slice(0, 2);
    return rest ? month + '/' + rest : month;
  }

  // ------------------------------------------------------------------
  // Field validation (pure). Each returns {empty, complete, valid, error}
  // where error is a message key (required | incomplete | invalid | expired).
  // ------------------------------------------------------------------

  function validateNumber(value) {
    var d = digitsOnly(value);
    var brand = detectBrand(d);
    var info = brandInfo(brand);
    var lengthOk = info.lengths.indexOf(d.length) >= 0;
    var valid = lengthOk && luhnValid(d);
    // Complete once a valid length passes Luhn (a 16-digit Visa may grow to
    // 19, so a failing 16 is not yet complete) or the maximum is reached.
    // A failing number of a possible length reads "invalid" (a typo is more
    // likely than a missing digit) but is only shown once the user leaves.
    var complete = valid || d.length >= maxLength(brand);
    return {
      empty: d.length === 0,
      complete: complete,
      valid: valid,
      brand: brand,
      error: valid ? null : d.length === 0 ? 'required' : complete || lengthOk ? 'invalid' : 'incomplete'
    };
  }

  /** now: a Date (injected so tests control time). The card is valid through the end of its month. */
  function parseExpiry(value, now) {
    var m = /^(\d{2})\/(\d{2})$/.exec(formatExpiry(value));
    var empty = digitsOnly(value).length === 0;
    if (!m) return { empty: empty, complete: false, valid: false, error: empty ? 'required' : 'incomplete' };
    var month = +m[1];
    var year = 2000 + +m[2];
    var t = now || new Date();
    var y = t.getFullYear();
    var error = null;
    if (month < 1 || month > 12 || year > y + 20) error = 'invalid';
    else if (year < y || (year === y && month < t.getMonth() + 1)) error = 'expired';
    return { empty: false, complete: true, valid: !error, error: error, month: month, year: year };
  }

  function validateCvv(value, brand) {
    var d = digitsOnly(value);
    var need = brandInfo(brand).cvv;
    var ok = need ? d.length === need : d.length === 3 || d.length === 4;
    var complete = ok || d.length >= (need || 4);
    return {
      empty: d.length === 0,
      complete: complete,
      valid: ok,
      error: ok ? null : d.length === 0 ? 'required' : complete ? 'invalid' : 'incomplete'
    };
  }

  function validateHolder(value) {
    var v = String(value == null ? '' : value).trim().replace(/\s+/g, ' ');
    // Letters (any script, accents included), spaces, dot, apostrophe, hyphen;
    // at least two letters. No digits: a name field must not collect a PAN.
    var ok = v.length <= 64 && /^[\p{L}\p{M} .'-]+$/u.test(v) && (v.match(/\p{L}/gu) || []).length >= 2;
    return {
      empty: v.length === 0,
      complete: ok,
      valid: ok,
      error: ok ? null : v.length === 0 ? 'required' : 'invalid'
    };
  }

  // ------------------------------------------------------------------
  // Compact JWE (RFC 7516): RSA-OAEP-256 key wrap + A256GCM content.
  // ------------------------------------------------------------------

  var B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

  /** base64url without padding (no btoa: also runs in a bare VM context). */
  function b64url(bytes) {
    var out = '';
    var i = 0;
    var n;
    for (; i + 2 < bytes.length; i += 3) {
      n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
      out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63] + B64[(n >> 6) & 63] + B64[n & 63];
    }
    if (bytes.length - i === 1) {
      n = bytes[i] << 16;
      out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63];
    } else if (bytes.length - i === 2) {
      n = (bytes[i] << 16) | (bytes[i + 1] << 8);
      out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63] + B64[(n >> 6) & 63];
    }
    return out;
  }

  function utf8(s) {
    return new TextEncoder().encode(s);
  }

  /**
   * Encrypts plaintext (a string) for the vault public key jwk and returns the
   * compact JWE header.encryptedKey.iv.ciphertext.tag. kid defaults to jwk.kid.
   * Fresh random 256-bit content key and 96-bit IV per call; the AAD is the
   * ASCII of the base64url protected header, as RFC 7516 requires.
   */
  function buildJwe(jwk, plaintext, kid) {
    var c = root.crypto;
    var subtle = c && c.subtle;
    if (!subtle) return Promise.reject(new Error('Web Crypto is unavailable (secure context required)'));
    if (!jwk || jwk.kty !== 'RSA' || typeof jwk.n !== 'string' || typeof jwk.e !== 'string') {
      return Promise.reject(new TypeError('jwk must be an RSA public key'));
    }
    if (jwk.alg && jwk.alg !== 'RSA-OAEP-256') return Promise.reject(new TypeError('jwk alg must be RSA-OAEP-256'));
    // Refuse keys under 2048 bits (256 bytes of modulus, 342 base64url chars).
    if (jwk.n.length < 342) return Promise.reject(new TypeError('RSA key too small'));
    kid = kid || jwk.kid;
    if (typeof kid !== 'string' || !kid) return Promise.reject(new TypeError('kid is required'));

    var header = b64url(utf8(JSON.stringify({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: kid })));
    var cek = c.getRandomValues(new Uint8Array(32));
    var iv = c.getRandomValues(new Uint8Array(12));
    var wrapped;
    // Only the public members are imported, so a "use"/"key_ops" mismatch in
    // the published JWK cannot make the import fail.
    return subtle.importKey(
      'jwk',
      { kty: 'RSA', n: jwk.n, e: jwk.e, alg: 'RSA-OAEP-256', ext: true },
      { name: 'RSA-OAEP', hash: 'SHA-256' },
      false,
      ['encrypt']
    ).then(function (pub) {
      return subtle.encrypt({ name: 'RSA-OAEP' }, pub, cek);
    }).then(function (ek) {
      wrapped = new Uint8Array(ek);
      return subtle.importKey('raw', cek, { name: 'AES-GCM' }, false, ['encrypt']);
    }).then(function (aes) {
      cek.fill(0); // the raw content key is no longer needed in memory
      return subtle.encrypt(
        { name: 'AES-GCM', iv: iv, additionalData: utf8(header), tagLength: 128 },
        aes,
        utf8(plaintext)
      );
    }).then(function (sealed) {
      var out = new Uint8Array(sealed); // Web Crypto appends the 16-byte tag
      var cut = out.length - 16;
      return [header, b64url(wrapped), b64url(iv), b64url(out.subarray(0, cut)), b64url(out.subarray(cut))].join('.');
    });
  }

  // ------------------------------------------------------------------
  // Fragment parameters (pure). The parent page controls them, so every
  // value is checked here: this page is the trust boundary.
  // ------------------------------------------------------------------

  function decode(s) {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch (e) {
      return null;
    }
  }

  function parseJsonObject(s) {
    if (!s) return {};
    try {
      var v = JSON.parse(s);
      return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
    } catch (e) {
      return {};
    }
  }

  /** Returns {ok, ticket, keyId, origin, locale, hide, style, placeholders}; ok false when unusable. */
  function parseFragment(hash) {
    var p = {};
    String(hash || '').replace(/^#/, '').split('&').forEach(function (pair) {
      var i = pair.indexOf('=');
      if (i > 0) {
        var k = decode(pair.slice(0, i));
        var v = decode(pair.slice(i + 1));
        if (k && v !== null && !Object.prototype.hasOwnProperty.call(p, k)) p[k] = v;
      }
    });
    // The origin results are posted to. It must be an exact http(s) origin
    // (scheme://host[:port], nothing else): a bad value disables the page
    // rather than falling back to '*'.
    var origin = /^https?:\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d{1,5})?$/.test(p.origin || '') ? p.origin : null;
    var ticket = p.ticket && p.ticket.length <= 4096 ? p.ticket : null;
    var keyId = p.keyId && p.keyId.length <= 256 ? p.keyId : null;
    return {
      ok: !!(origin && ticket && keyId),
      ticket: ticket,
      keyId: keyId,
      origin: origin,
      locale: p.locale === 'en' ? 'en' : 'pt-BR',
      hide: p.hide === '1' || p.hide === 'true',
      style: parseJsonObject(p.style),
      placeholders: parseJsonObject(p.placeholders)
    };
  }

  var COLOR = /^(#[0-9a-f]{3,8}|(rgba?|hsla?)\([\d\s.,%/deg]+\)|[a-z]{3,30})$/i;
  var SIZE = /^\d{1,3}(\.\d{1,3})?(px|rem|em|pt|%)$/;
  // Names of installed fonts only: no parentheses, so no url()/local(). The
  // CSP has no font-src either, so nothing can be downloaded anyway.
  var FONT = /^[\w\s,'"-]{1,200}$/;
  var STYLE_RULES = {
    fontFamily: ['--svc-font', FONT],
    fontSize: ['--svc-font-size', SIZE],
    color: ['--svc-color', COLOR],
    placeholderColor: ['--svc-placeholder', COLOR],
    backgroundColor: ['--svc-bg', COLOR],
    borderColor: ['--svc-border', COLOR],
    borderRadius: ['--svc-radius', SIZE],
    errorColor: ['--svc-error', COLOR],
    accentColor: ['--svc-accent', COLOR]
  };

  /** Maps the seller's style option to CSS custom properties, dropping anything unsafe. */
  function sanitizeStyle(style) {
    var out = {};
    for (var k in STYLE_RULES) {
      var v = style && style[k];
      if (typeof v === 'string' && STYLE_RULES[k][1].test(v.trim())) out[STYLE_RULES[k][0]] = v.trim();
    }
    return out;
  }

  /** Keeps secret material out of anything sent to the parent: no run of 6+ digits survives. */
  function redact(text) {
    return String(text).replace(/\d[\d\s.-]{4,}\d/g, '…');
  }

  root.SvcHostedFields = {
    detectBrand: detectBrand,
    brandInfo: brandInfo,
    luhnValid: luhnValid,
    formatNumber: formatNumber,
    formatExpiry: formatExpiry,
    validateNumber: validateNumber,
    parseExpiry: parseExpiry,
    validateCvv: validateCvv,
    validateHolder: validateHolder,
    buildJwe: buildJwe,
    b64url: b64url,
    parseFragment: parseFragment,
    sanitizeStyle: sanitizeStyle,
    redact: redact
  };

  if (typeof document === 'undefined') return;

  // ------------------------------------------------------------------
  // DOM wiring (browser only)
  // ------------------------------------------------------------------

  var TEXT = {
    'pt-BR': {
      title: 'Dados do cartão',
      number: 'Número do cartão',
      expiry: 'Validade',
      cvv: 'Código de segurança (CVV)',
      holderName: 'Nome do titular',
      ph: { number: '1234 1234 1234 1234', expiry: 'MM/AA', cvv: '123', holderName: 'Como impresso no cartão' },
      submit: 'Salvar cartão',
      busy: 'Processando…',
      saved: 'Cartão salvo',
      brand: 'Bandeira: ',
      err: {
        number: { required: 'Informe o número do cartão.', incomplete: 'Número do cartão incompleto.', invalid: 'Número do cartão inválido.' },
        expiry: { required: 'Informe a validade.', incomplete: 'Validade incompleta.', invalid: 'Validade inválida.', expired: 'Cartão vencido.' },
        cvv: { required: 'Informe o código de segurança.', incomplete: 'Código de segurança incompleto.', invalid: 'Código de segurança inválido.' },
        holderName: { required: 'Informe o nome do titular.', invalid: 'Nome do titular inválido.' }
      },
      code: {
        VALIDATION_ERROR: 'Verifique os dados do cartão.',
        TICKET_EXPIRED: 'Sessão expirada. Recarregue a página para tentar de novo.',
        RATE_LIMITED: 'Muitas tentativas. Aguarde um pouco e tente de novo.',
        PROVIDER_ERROR: 'Não foi possível salvar o cartão. Tente de novo.',
        SERVICE_UNAVAILABLE: 'Serviço indisponível. Tente de novo em instantes.',
        CONFIG: 'Formulário de cartão mal configurado.'
      }
    },
    en: {
      title: 'Card details',
      number: 'Card number',
      expiry: 'Expiry date',
      cvv: 'Security code (CVV)',
      holderName: 'Cardholder name',
      ph: { number: '1234 1234 1234 1234', expiry: 'MM/YY', cvv: '123', holderName: 'As printed on the card' },
      submit: 'Save card',
      busy: 'Processing…',
      saved: 'Card saved',
      brand: 'Brand: ',
      err: {
        number: { required: 'Enter the card number.', incomplete: 'The card number is incomplete.', invalid: 'The card number is invalid.' },
        expiry: { required: 'Enter the expiry date.', incomplete: 'The expiry date is incomplete.', invalid: 'The expiry date is invalid.', expired: 'The card has expired.' },
        cvv: { required: 'Enter the security code.', incomplete: 'The security code is incomplete.', invalid: 'The security code is invalid.' },
        holderName: { required: 'Enter the cardholder name.', invalid: 'The cardholder name is invalid.' }
      },
      code: {
        VALIDATION_ERROR: 'Check the card details.',
        TICKET_EXPIRED: 'Session expired. Reload the page to try again.',
        RATE_LIMITED: 'Too many attempts. Wait a moment and try again.',
        PROVIDER_ERROR: 'The card could not be saved. Try again.',
        SERVICE_UNAVAILABLE: 'Service unavailable. Try again shortly.',
        CONFIG: 'The card form is misconfigured.'
      }
    }
  };

  var FIELDS = ['number', 'expiry', 'cvv', 'holderName'];
  var params = parseFragment(location.hash);
  var T = TEXT[params.locale];
  var $ = function (id) { return document.getElementById(id); };
  var form = $('form');
  var button = $('submit');
  var statusEl = $('status');
  var brandEl = $('number-brand');
  var inputs = {};
  var touched = {};
  var lastSent = {};
  var busy = false;
  var result = null; // {token, brand, last4} once issued
  var locked = false;

  // A frame opened directly, or framed by a page other than the declared
  // origin (checked where the browser exposes ancestorOrigins), must not run:
  // results would go nowhere, or to a page that did not mount us.
  var ancestors = location.ancestorOrigins;
  if (params.ok && (window.parent === window || (ancestors && ancestors.length && ancestors[0] !== params.origin))) {
    params.ok = false;
  }

  /** The only way out of this page: to the mounting origin, never '*'. */
  function post(msg) {
    if (!params.ok) return;
    msg.channel = CHANNEL;
    window.parent.postMessage(msg, params.origin);
  }

  document.documentElement.lang = params.locale;
  document.title = T.title;
  var vars = sanitizeStyle(params.style);
  for (var name in vars) document.documentElement.style.setProperty(name, vars[name]);
  if (params.style.theme === 'dark') document.documentElement.className = 'dark';

  FIELDS.forEach(function (f) {
    var input = $(f);
    inputs[f] = input;
    $(f + '-label').textContent = T[f];
    var ph = params.placeholders[f];
    input.placeholder = typeof ph === 'string' && ph.length <= 60 ? ph : T.ph[f];
    input.addEventListener('input', function (ev) { onInput(f, ev); });
    input.addEventListener('focus', function () { post({ type: 'focus', field: f }); });
    input.addEventListener('blur', function () {
      touched[f] = true;
      refresh(f);
      post({ type: 'blur', field: f });
    });
  });
  button.textContent = T.submit;
  button.hidden = params.hide;

  function states() {
    var brand = detectBrand(inputs.number.value);
    return {
      number: validateNumber(inputs.number.value),
      expiry: parseExpiry(inputs.expiry.value),
      cvv: validateCvv(inputs.cvv.value, brand),
      holderName: validateHolder(inputs.holderName.value),
      brand: brand
    };
  }

  function showError(f, key) {
    var el = $(f + '-error');
    var text = key ? T.err[f][key] || T.err[f].invalid : '';
    if (el.textContent !== text) el.textContent = text;
    inputs[f].setAttribute('aria-invalid', key ? 'true' : 'false');
  }

  /** Re-renders one field's error and reports its state (never its value) to the parent. */
  function refresh(f) {
    if (result) return {}; // saved: the fields only show a masked summary
    var all = states();
    var s = all[f];
    // Errors appear once the user left the field, or when a complete value
    // is wrong (e.g. Luhn fails at full length); "incomplete" waits for blur.
    showError(f, s.error && (touched[f] || (s.complete && !s.valid)) ? s.error : null);
    var info = brandInfo(all.brand);
    brandEl.textContent = info.name;
    brandEl.setAttribute('aria-label', info.name ? T.brand + info.name : '');
    inputs.cvv.maxLength = info.cvv || 4;
    var msg = {
      type: 'change',
      field: f,
      empty: s.empty,
      complete: s.complete,
      valid: s.valid,
      brand: all.brand,
      formComplete: FIELDS.every(function (k) { return all[k].valid; })
    };
    var key = JSON.stringify(msg);
    if (lastSent[f] !== key) {
      lastSent[f] = key;
      post(msg);
    }
    return s;
  }

  /** Writes a formatted value back, keeping the caret after the same number of digits. */
  function rewrite(input, formatted, digitsBefore) {
    input.value = formatted;
    if (document.activeElement !== input) return;
    var pos = formatted.length;
    if (digitsBefore < digitsOnly(formatted).length) {
      pos = 0;
      for (var seen = 0; seen < digitsBefore; pos++) {
        if (/\d/.test(formatted.charAt(pos))) seen++;
      }
    }
    input.setSelectionRange(pos, pos);
  }

  function format(f, value) {
    return f === 'number' ? formatNumber(value) : formatExpiry(value);
  }

  var previous = { number: '', expiry: '' };

  function onInput(f, ev) {
    var input = inputs[f];
    var type = (ev && ev.inputType) || '';
    if (statusEl.className !== 'status') setStatus('', false); // the user is fixing the last error
    if (f === 'number' || f === 'expiry') {
      var value = input.value;
      var caret = input.selectionStart == null ? value.length : input.selectionStart;
      var before = digitsOnly(value.slice(0, caret)).length;
      var formatted = format(f, value);
      // Backspace that removed only a separator (a space, or the slash between
      // month and year) would be undone by the formatting and leave the caret
      // stuck: remove the digit before it instead.
      if (type === 'deleteContentBackward' && formatted === previous[f] && before > 0) {
        var d = digitsOnly(value);
        formatted = format(f, d.slice(0, before - 1) + d.slice(before));
        before--;
      }
      // Typing the second month digit adds the slash for the user.
      if (f === 'expiry' && type.indexOf('insert') === 0 && formatted.length === 2) formatted += '/';
      // Formatting may add a digit ("4" becomes "04"): keep the caret after it.
      var added = digitsOnly(formatted).length - digitsOnly(value).length;
      rewrite(input, formatted, added > 0 ? before + added : before);
      previous[f] = formatted;
    } else if (f === 'cvv') {
      var c = digitsOnly(input.value).slice(0, input.maxLength > 0 ? input.maxLength : 4);
      if (c !== input.value) input.value = c;
    }
    var s = refresh(f);
    // The number decides the CVV length (Amex 4), so the CVV state changes too.
    if (f === 'number' && inputs.cvv.value) refresh('cvv');
    // Move on when a field is finished by typing at its end. A number valid
    // at 13 digits may still be a 16-digit Visa being typed: wait for 16
    // digits or the brand's maximum.
    var len = digitsOnly(input.value).length;
    var brand = detectBrand(inputs.number.value);
    var done = f === 'number' ? len >= 16 || len === maxLength(brand)
      : f === 'cvv' ? len === brandInfo(brand).cvv : f === 'expiry';
    if (s.valid && done && type.indexOf('insert') === 0 && input.selectionEnd === input.value.length) {
      var next = { number: 'expiry', expiry: 'cvv', cvv: 'holderName' }[f];
      if (next && !inputs[next].value) inputs[next].focus();
    }
  }

  function setStatus(text, isError) {
    statusEl.textContent = text;
    statusEl.className = isError ? 'status status-error' : 'status';
  }

  function setBusy(on) {
    busy = on;
    button.disabled = on || locked;
    form.setAttribute('aria-busy', on ? 'true' : 'false');
    FIELDS.forEach(function (f) { inputs[f].readOnly = on || locked; });
  }

  function fail(code, message, details) {
    var text = T.code[code] || T.code.PROVIDER_ERROR;
    setStatus(text, true);
    var msg = { type: 'error', code: code, message: redact(message || text) };
    if (details && details.length) msg.details = details;
    post(msg);
  }

  function request(path, init) {
    // Relative to this page, so a vault mounted under a path prefix works.
    // No cookies: the ticket is the only credential.
    init.credentials = 'omit';
    var ctrl = typeof AbortController === 'function' ? new AbortController() : null;
    var timer = ctrl && setTimeout(function () { ctrl.abort(); }, 20000);
    if (ctrl) init.signal = ctrl.signal;
    return fetch(path, init).then(function (res) {
      return res.text().then(function (text) {
        clearTimeout(timer);
        var body = null;
        try { body = JSON.parse(text); } catch (e) { /* not JSON */ }
        return { status: res.status, ok: res.ok, body: body };
      });
    }, function (e) {
      clearTimeout(timer);
      throw e;
    });
  }

  /**
   * The key with exactly the fragment's keyId (the one delivered with the
   * intent). Keys come from this origin's /keys, never from the parent, so a
   * script on the seller's page cannot substitute its own key. A cached list
   * from before a key rotation may lack a new key: retry once past the cache.
   */
  function findKey(reload) {
    return request('keys', reload ? { cache: 'no-cache' } : {}).then(function (r) {
      if (!r.ok) throw { code: r.status === 429 ? 'RATE_LIMITED' : 'SERVICE_UNAVAILABLE', message: 'GET /keys answered ' + r.status };
      var keys = r.ok && r.body && Array.isArray(r.body.keys) ? r.body.keys : [];
      for (var i = 0; i < keys.length; i++) {
        if (keys[i] && keys[i].keyId === params.keyId && keys[i].jwk) return keys[i].jwk;
      }
      if (!reload) return findKey(true);
      return null;
    });
  }

  var SERVER_FIELD = { number: 'number', holderName: 'holderName', expMonth: 'expiry', expYear: 'expiry', cvv: 'cvv' };

  function lockSaved(res) {
    result = res;
    locked = true;
    // Drop the digits from the page once the vault holds them: the number
    // shows only its last four, the CVV is erased.
    inputs.number.value = '•••• ' + res.last4;
    inputs.cvv.value = '';
    inputs.cvv.placeholder = '•••';
    form.className = 'saved';
    button.hidden = true;
    setBusy(false);
    setStatus(T.saved, false);
  }

  function submit() {
    if (!params.ok) return;
    if (result) return post({ type: 'token', token: result.token, brand: result.brand, last4: result.last4 });
    if (busy || locked) return;
    var all = states();
    var details = [];
    FIELDS.forEach(function (f) {
      touched[f] = true;
      refresh(f);
      if (!all[f].valid) details.push({ field: f, message: T.err[f][all[f].error] || T.err[f].invalid });
    });
    // Invalid data never reaches the vault.
    if (details.length) {
      inputs[details[0].field].focus();
      return fail('VALIDATION_ERROR', T.code.VALIDATION_ERROR, details);
    }
    setBusy(true);
    setStatus(T.busy, false);
    findKey(false).then(function (jwk) {
      if (!jwk) throw { code: 'SERVICE_UNAVAILABLE', message: 'Encryption key ' + params.keyId + ' is not published by the vault' };
      var card = JSON.stringify({
        number: digitsOnly(inputs.number.value),
        holderName: inputs.holderName.value.trim().replace(/\s+/g, ' '),
        expMonth: all.expiry.month,
        expYear: all.expiry.year,
        cvv: digitsOnly(inputs.cvv.value)
      });
      return buildJwe(jwk, card, params.keyId);
    }).then(function (jwe) {
      return request('tokenize', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ticket: params.ticket, keyId: params.keyId, encryptedCard: jwe })
      });
    }).then(function (r) {
      var b = r.body || {};
      if (r.ok && typeof b.token === 'string' && /^\d{4}$/.test(b.last4)) {
        var res = { token: b.token, brand: typeof b.brand === 'string' ? b.brand : '', last4: b.last4 };
        lockSaved(res);
        // Only these three fields leave the frame.
        post({ type: 'token', token: res.token, brand: res.brand, last4: res.last4 });
        return;
      }
      var code = typeof b.code === 'string' && /^[A-Z][A-Z_]{1,63}$/.test(b.code) ? b.code
        : r.status === 401 ? 'TICKET_EXPIRED' : r.status === 429 ? 'RATE_LIMITED'
        : r.status === 400 || r.status === 422 ? 'VALIDATION_ERROR' : r.status === 502 ? 'PROVIDER_ERROR' : 'SERVICE_UNAVAILABLE';
      // A dead ticket cannot succeed later: keep the form read-only.
      if (code === 'TICKET_EXPIRED') locked = true;
      setBusy(false);
      var out = [];
      if (code === 'VALIDATION_ERROR' && Array.isArray(b.details)) {
        b.details.forEach(function (d) {
          var f = d && Object.prototype.hasOwnProperty.call(SERVER_FIELD, d.field) ? SERVER_FIELD[d.field] : null;
          if (f && !out.some(function (x) { return x.field === f; })) {
            showError(f, 'invalid');
            out.push({ field: f, message: typeof d.message === 'string' ? redact(d.message) : T.err[f].invalid });
          }
        });
      }
      fail(code, typeof b.message === 'string' ? b.message : '', out);
    }).catch(function (e) {
      setBusy(false);
      var known = e && typeof e.code === 'string';
      fail(known ? e.code : 'SERVICE_UNAVAILABLE', known ? e.message : 'The card could not be encrypted or sent to the vault');
    });
  }

  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    // With the seller's own button (hide), Enter in a field does not submit:
    // the seller decides when tokenize() runs.
    if (!params.hide) submit();
  });

  // Commands from the parent: only from the window that framed us AND from
  // the origin it declared.
  window.addEventListener('message', function (ev) {
    if (!params.ok || ev.source !== window.parent || ev.origin !== params.origin) return;
    var d = ev.data;
    if (!d || typeof d !== 'object' || d.channel !== CHANNEL) return;
    if (d.type === 'tokenize') submit();
    else if (d.type === 'focus' && !locked) {
      window.focus();
      inputs.number.focus();
    }
  });

  // Height follows the content (error lines appear and go).
  var lastHeight = -1;
  function reportHeight() {
    var h = Math.ceil(form.getBoundingClientRect().height);
    if (h !== lastHeight) {
      lastHeight = h;
      post({ type: 'resize', height: h });
    }
  }
  if (typeof ResizeObserver === 'function') new ResizeObserver(reportHeight).observe(form);
  else window.addEventListener('resize', reportHeight);

  if (!params.ok) {
    FIELDS.forEach(function (f) { inputs[f].disabled = true; });
    button.disabled = true;
    setStatus(T.code.CONFIG, true);
    return;
  }
  post({ type: 'ready' });
  reportHeight();
})(globalThis);
