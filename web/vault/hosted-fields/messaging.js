/*
 * postMessage between this frame and the page that mounted it (web/vault/
 * sdk.js on the other side). Why a module: this is the only way anything
 * leaves the frame, so the rules are in one place: messages go to the
 * declared origin only (never '*'), commands are taken only from the framing
 * window and that origin, and no run of digits survives in a message.
 */

/** Every message of the protocol carries this tag (the SDK checks it too). */
const CHANNEL = 'svc-vault';

/** Keeps secret material out of anything sent to the parent: no run of 6+ digits survives. */
export function redact(text) {
  return String(text).replace(/\d[\d\s.-]{4,}\d/g, '…');
}

/** post(msg) for a page whose fragment is params: to the mounting origin, nothing when unusable. */
export function createPoster(params) {
  return function post(msg) {
    if (!params.ok) return;
    msg.channel = CHANNEL;
    window.parent.postMessage(msg, params.origin);
  };
}

/**
 * A frame opened directly, or framed by a page other than the declared
 * origin (checked where the browser exposes ancestorOrigins), must not run:
 * results would go nowhere, or to a page that did not mount us.
 */
export function framedByDeclaredOrigin(params) {
  const ancestors = location.ancestorOrigins;
  return window.parent !== window && !(ancestors && ancestors.length && ancestors[0] !== params.origin);
}

/** Calls handlers[type]() for commands from the parent: only from the window that framed us AND from the origin it declared. */
export function listenToParent(params, handlers) {
  window.addEventListener('message', (ev) => {
    if (!params.ok || ev.source !== window.parent || ev.origin !== params.origin) return;
    const d = ev.data;
    if (!d || typeof d !== 'object' || d.channel !== CHANNEL) return;
    if (Object.prototype.hasOwnProperty.call(handlers, d.type)) handlers[d.type]();
  });
}

/**
 * Reports the form's height whenever it changes (error lines appear and go),
 * so the iframe follows it. Returns the reporter, to call once after "ready".
 */
export function watchHeight(form, post) {
  let lastHeight = -1;
  const report = () => {
    const h = Math.ceil(form.getBoundingClientRect().height);
    if (h !== lastHeight) {
      lastHeight = h;
      post({ type: 'resize', height: h });
    }
  };
  if (typeof ResizeObserver === 'function') new ResizeObserver(report).observe(form);
  else window.addEventListener('resize', report);
  return report;
}
