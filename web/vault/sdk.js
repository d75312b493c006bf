/*! SvcVault client script 0.3.0 */
/*
 * Served by the vault at GET /sdk.js (minified by scripts/build-web.mjs).
 *
 * The seller's page includes this file and calls SvcVault.mount(). The card
 * fields live in an iframe served by the vault origin (GET /hosted-fields),
 * so card digits are typed, encrypted and sent from the vault origin only:
 * the seller's page (and this script, which runs in it) never sees them.
 *
 * Plain ES5-style JavaScript, bundled into one small file: sellers load it
 * on every checkout page. Its one import is the submit label's rule, which
 * the frame applies too (submit-label.js).
 */
import { plainLabel, SUBMIT_LABEL_MAX } from './submit-label.js';

(function (w) {
  'use strict';

  var VERSION = '0.3.0';
  // Every message of the protocol carries this tag, so unrelated postMessage
  // traffic on the page (analytics, other widgets) is ignored early.
  var CHANNEL = 'svc-vault';
  var FIELDS = ['number', 'expiry', 'cvv', 'holderName'];

  // An array lookup, not an object: 'toString' & co. must not pass as fields.
  function isField(f) {
    return FIELDS.indexOf(f) >= 0;
  }

  function fail(message) {
    throw new TypeError('SvcVault: ' + message);
  }

  function isFn(f) {
    return typeof f === 'function';
  }

  // A throwing seller callback must not break our message handling; rethrow
  // it asynchronously so it still shows in the console.
  function call(fn, arg) {
    if (isFn(fn)) {
      try {
        fn(arg);
      } catch (e) {
        setTimeout(function () { throw e; });
      }
    }
  }

  function str(v, max) {
    return typeof v === 'string' && v.length > 0 && v.length <= max;
  }

  // Loopback hosts may use http (local development; Web Crypto treats them as
  // secure contexts). Anything else must be https: the hosted page needs a
  // secure context for crypto.subtle, and the ticket must not travel in clear.
  function loopback(host) {
    return host === 'localhost' || /\.localhost$/.test(host) || /^127\./.test(host) || host === '[::1]';
  }

  function vaultError(code, message, details) {
    var e = new Error(message || code);
    e.code = code;
    if (details) e.details = details;
    return e;
  }

  function mount(element, options) {
    var doc = w.document;
    var o = options || {};
    var el = typeof element === 'string' ? doc.querySelector(element) : element;
    if (!el || !isFn(el.appendChild)) fail('mount element not found');

    var url;
    try {
      url = new URL(o.vaultUrl);
    } catch (e) {
      fail('vaultUrl must be an absolute URL');
    }
    if (!(url.protocol === 'https:' || (url.protocol === 'http:' && loopback(url.hostname)))) {
      fail('vaultUrl must use https');
    }
    if (!str(o.ticket, 4096)) fail('ticket is required');
    var key = o.encryptionKey;
    if (!key || !str(key.kid, 256)) fail('encryptionKey (with kid) is required');

    // The page's own origin is where the frame will post results. An opaque
    // origin ("null", e.g. file:// or a sandboxed page) cannot be targeted
    // safely, and we never fall back to '*'.
    var parentOrigin = w.location.origin;
    if (!/^https?:\/\//.test(parentOrigin)) fail('the page must be served over http(s)');

    var vaultOrigin = url.origin;
    var base = vaultOrigin + url.pathname.replace(/\/+$/, '');
    var locale = o.locale === 'en' ? 'en' : 'pt-BR';

    // Parameters go in the fragment: the browser never sends it to the
    // server, so the ticket does not reach access logs or proxies.
    var params = [
      ['ticket', o.ticket],
      ['keyId', key.kid],
      ['origin', parentOrigin],
      ['locale', locale]
    ];
    if (o.hideSubmitButton) params.push(['hide', '1']);
    if (o.submitLabel !== undefined) {
      var label = plainLabel(o.submitLabel);
      if (label === null) fail('submitLabel must be plain text of 1 to ' + SUBMIT_LABEL_MAX + ' characters on one line');
      params.push(['submitLabel', label]);
    }
    if (o.style && typeof o.style === 'object') params.push(['style', JSON.stringify(o.style)]);
    if (o.placeholders && typeof o.placeholders === 'object') params.push(['placeholders', JSON.stringify(o.placeholders)]);
    var fragment = params.map(function (p) {
      return p[0] + '=' + encodeURIComponent(p[1]);
    }).join('&');

    var iframe = doc.createElement('iframe');
    iframe.src = base + '/hosted-fields#' + fragment;
    iframe.title = locale === 'en' ? 'Card details' : 'Dados do cartão';
    // allow-same-origin keeps the vault origin (needed for the origin checks
    // and same-origin fetches); it is safe because that origin differs from
    // the page's. No top navigation, popups or modals from the frame.
    iframe.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
    iframe.setAttribute('referrerpolicy', 'no-referrer');
    iframe.setAttribute('scrolling', 'no');
    // CSSOM writes work under a strict style-src on the seller's page.
    var s = iframe.style;
    s.border = '0';
    s.width = '100%';
    s.display = 'block';
    s.overflow = 'hidden';
    s.height = '260px';

    var ready = false;
    var dead = false;
    var queue = [];
    var pending = [];

    function send(msg) {
      msg.channel = CHANNEL;
      // targetOrigin is the vault origin: if the frame were navigated
      // elsewhere, the browser drops the message instead of delivering it.
      if (ready && iframe.contentWindow) iframe.contentWindow.postMessage(msg, vaultOrigin);
      else queue.push(msg);
    }

    function settle(ok, value) {
      var list = pending;
      pending = [];
      for (var i = 0; i < list.length; i++) list[i][ok ? 0 : 1](value);
    }

    function onMessage(ev) {
      // Only the vault origin AND this very iframe: another vault frame on the
      // page, or any window spoofing the shape, is ignored.
      if (ev.origin !== vaultOrigin || ev.source !== iframe.contentWindow || dead) return;
      var d = ev.data;
      if (!d || typeof d !== 'object' || d.channel !== CHANNEL || typeof d.type !== 'string') return;
      var t = d.type;
      if (t === 'ready') {
        ready = true;
        var q = queue;
        queue = [];
        for (var i = 0; i < q.length; i++) send(q[i]);
        call(o.onReady);
      } else if (t === 'resize') {
        var h = d.height;
        if (typeof h === 'number' && h >= 0 && h <= 5000) s.height = Math.ceil(h) + 'px';
      } else if (t === 'change') {
        if (!isField(d.field)) return;
        // Rebuild the object: only these keys reach the seller, whatever the
        // frame sent (defence in depth: no card data can ride along).
        call(o.onChange, {
          field: d.field,
          empty: d.empty === true,
          complete: d.complete === true,
          valid: d.valid === true,
          brand: typeof d.brand === 'string' ? d.brand : null,
          formComplete: d.formComplete === true
        });
      } else if (t === 'focus' || t === 'blur') {
        if (isField(d.field)) call(t === 'focus' ? o.onFocus : o.onBlur, { field: d.field });
      } else if (t === 'token') {
        if (!str(d.token, 8192) || typeof d.brand !== 'string' || !/^\d{4}$/.test(d.last4)) return;
        var result = { token: d.token, brand: d.brand, last4: d.last4 };
        call(o.onToken, result);
        settle(true, result);
      } else if (t === 'error') {
        if (!/^[A-Z][A-Z_]{1,63}$/.test(d.code)) return;
        var details = null;
        if (Array.isArray(d.details)) {
          details = d.details.filter(function (x) {
            return x && typeof x.field === 'string' && typeof x.message === 'string';
          }).map(function (x) {
            return { field: x.field, message: x.message };
          });
        }
        var err = vaultError(d.code, typeof d.message === 'string' ? d.message : d.code, details);
        call(o.onError, err);
        settle(false, err);
      }
    }

    w.addEventListener('message', onMessage);
    el.appendChild(iframe);

    return {
      // Asks the frame to validate and submit. Resolves with {token, brand,
      // last4} or rejects with the error ({code, message}); the onToken /
      // onError callbacks are called as well.
      tokenize: function () {
        return new Promise(function (resolve, reject) {
          if (dead) return reject(vaultError('UNMOUNTED', 'SvcVault: unmounted'));
          pending.push([resolve, reject]);
          send({ type: 'tokenize' });
        });
      },
      focus: function () {
        if (!dead) send({ type: 'focus' });
      },
      unmount: function () {
        if (dead) return;
        dead = true;
        w.removeEventListener('message', onMessage);
        if (iframe.parentNode) iframe.parentNode.removeChild(iframe);
        settle(false, vaultError('UNMOUNTED', 'SvcVault: unmounted'));
      }
    };
  }

  w.SvcVault = { version: VERSION, mount: mount };
})(typeof window !== 'undefined' ? window : globalThis);
