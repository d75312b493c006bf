/**
 * The served SDK (web/vault/sdk.js as built into dist/web) in a VM context
 * with a minimal fake window and document: the iframe URL it builds, the origin + source checks on incoming messages,
 * the shape checks, the tokenize() promise and unmount().
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import vm from 'node:vm';
import { WEB_ROOT } from '../../src/http/web-assets.js';

type Json = Record<string, any>;

const SCRIPT = path.join(WEB_ROOT, 'vault/sdk.js');
const SOURCE = fs.readFileSync(SCRIPT, 'utf8');
const VAULT = 'https://vault.example';
const SHOP = 'https://shop.example';
const KEY = { kty: 'RSA', kid: 'vk_2026_01', alg: 'RSA-OAEP-256', use: 'enc', n: 'AQAB', e: 'AQAB' };

class FakeElement {
  tagName: string;
  children: FakeElement[] = [];
  parentNode: FakeElement | null = null;
  attributes: Record<string, string> = {};
  style: Record<string, string> = {};
  src = '';
  title = '';
  contentWindow: Json | null = null;
  constructor(tagName: string) {
    this.tagName = tagName.toUpperCase();
  }
  appendChild(child: FakeElement) {
    this.children.push(child);
    child.parentNode = this;
    return child;
  }
  removeChild(child: FakeElement) {
    this.children = this.children.filter((c) => c !== child);
    child.parentNode = null;
    return child;
  }
  setAttribute(name: string, value: string) {
    this.attributes[name] = String(value);
  }
}

function setup(pageOrigin = SHOP) {
  const listeners = new Set<(ev: Json) => void>();
  const toFrame: Array<{ msg: Json; target: string }> = [];
  const frameWindow = {
    postMessage(msg: unknown, target: string) {
      toFrame.push({ msg: JSON.parse(JSON.stringify(msg)), target });
    },
  };
  const container = new FakeElement('div');
  const document = {
    createElement(tag: string) {
      const el = new FakeElement(tag);
      if (tag === 'iframe') el.contentWindow = frameWindow;
      return el;
    },
    querySelector: (selector: string) => (selector === '#card' ? container : null),
  };
  const window: Json = {
    document,
    location: { origin: pageOrigin },
    addEventListener: (type: string, fn: (ev: Json) => void) => type === 'message' && listeners.add(fn),
    removeEventListener: (type: string, fn: (ev: Json) => void) => type === 'message' && listeners.delete(fn),
  };
  const context: Json = { window, URL, setTimeout };
  vm.createContext(context);
  vm.runInContext(SOURCE, context, { filename: SCRIPT });
  const iframe = () => container.children[0];
  /** Delivers a message event as the browser would (origin and source set by the browser). */
  const deliver = (data: unknown, origin = VAULT, source: unknown = frameWindow) => {
    for (const fn of [...listeners]) fn({ data, origin, source });
  };
  const fromFrame = (data: Json, origin = VAULT, source: unknown = frameWindow) =>
    deliver({ channel: 'svc-vault', ...data }, origin, source);
  return { context, SvcVault: window.SvcVault as Json, container, iframe, listeners, toFrame, frameWindow, deliver, fromFrame };
}

function fragment(src: string): Record<string, string> {
  const hash = new URL(src).hash.slice(1);
  return Object.fromEntries(new URLSearchParams(hash));
}

/** Collects the callbacks the SDK calls. */
function recorder() {
  const calls: Array<[string, any]> = [];
  const options = {
    vaultUrl: VAULT,
    ticket: 'tkt_abc+/=',
    encryptionKey: KEY,
    onReady: () => calls.push(['ready', null]),
    onChange: (e: unknown) => calls.push(['change', JSON.parse(JSON.stringify(e))]),
    onFocus: (e: unknown) => calls.push(['focus', JSON.parse(JSON.stringify(e))]),
    onBlur: (e: unknown) => calls.push(['blur', JSON.parse(JSON.stringify(e))]),
    onToken: (e: unknown) => calls.push(['token', JSON.parse(JSON.stringify(e))]),
    onError: (e: Json) => calls.push(['error', { code: e.code, message: e.message, details: e.details }]),
  };
  return { calls, options };
}

describe('SvcVault.mount', () => {
  test('builds the iframe URL with ticket, keyId and origin in the fragment', () => {
    const { SvcVault, iframe } = setup();
    SvcVault.mount('#card', { vaultUrl: VAULT, ticket: 'tkt_abc+/=&x', encryptionKey: KEY });
    const frame = iframe()!;
    assert.equal(frame.tagName, 'IFRAME');
    const url = new URL(frame.src);
    assert.equal(url.origin + url.pathname, `${VAULT}/hosted-fields`);
    assert.equal(url.search, '', 'nothing in the query string: the fragment never reaches the server');
    assert.deepEqual(fragment(frame.src), { ticket: 'tkt_abc+/=&x', keyId: 'vk_2026_01', origin: SHOP, locale: 'pt-BR' });
    assert.equal(frame.title, 'Dados do cartão');
    assert.equal(frame.attributes.sandbox, 'allow-scripts allow-same-origin allow-forms');
    assert.equal(frame.style.height, '260px');
  });

  test('passes locale, hide, the submit label, style and placeholders; keeps a path prefix of vaultUrl', () => {
    const { SvcVault, container, iframe } = setup();
    const style = { fontFamily: 'Georgia, serif', fontSize: '15px', color: '#222', theme: 'dark' };
    const placeholders = { number: '0000 0000 0000 0000', expiry: 'MM/YY', cvv: 'CVC', holderName: 'Name' };
    SvcVault.mount(container, {
      vaultUrl: 'https://pay.example/vault/', ticket: 't', encryptionKey: KEY,
      locale: 'en', hideSubmitButton: true, style, placeholders, submitLabel: "  Pay R$ 10 & <b>now</b> $' ",
    });
    const src = iframe()!.src;
    assert.ok(src.startsWith('https://pay.example/vault/hosted-fields#'), src);
    const p = fragment(src);
    assert.equal(p.locale, 'en');
    assert.equal(p.hide, '1');
    assert.equal(p.submitLabel, "Pay R$ 10 & <b>now</b> $'", 'as typed, trimmed');
    assert.equal(p.origin, SHOP);
    assert.deepEqual(JSON.parse(p.style!), style);
    assert.deepEqual(JSON.parse(p.placeholders!), placeholders);
    assert.equal(iframe()!.title, 'Card details');
  });

  test('refuses missing or unsafe options', () => {
    const { SvcVault, container } = setup();
    const ok = { vaultUrl: VAULT, ticket: 't', encryptionKey: KEY };
    assert.throws(() => SvcVault.mount('#nope', ok), /element/);
    assert.throws(() => SvcVault.mount(container, { ...ok, ticket: '' }), /ticket/);
    assert.throws(() => SvcVault.mount(container, { ...ok, encryptionKey: { kty: 'RSA' } }), /encryptionKey/);
    assert.throws(() => SvcVault.mount(container, { ...ok, vaultUrl: 'vault.example' }), /absolute/);
    assert.throws(() => SvcVault.mount(container, { ...ok, vaultUrl: 'http://vault.example' }), /https/);
    assert.throws(() => SvcVault.mount(container, { ...ok, vaultUrl: 'javascript:alert(1)' }), /https/);
    for (const submitLabel of ['', '   ', 'x'.repeat(41), 'Pagar\nagora', 'Pagar\u202eagora', 42, { toString: () => 'Pagar' }]) {
      assert.throws(() => SvcVault.mount(container, { ...ok, submitLabel }), /submitLabel must be plain text of 1 to 40 characters/, String(submitLabel));
    }
    assert.equal(container.children.length, 0);
    // Plain http is fine on loopback (local development).
    SvcVault.mount(container, { ...ok, vaultUrl: 'http://localhost:3001' });
    SvcVault.mount(container, { ...ok, vaultUrl: 'http://127.0.0.1:3001' });
    SvcVault.mount(container, { ...ok, submitLabel: 'x'.repeat(40) });
    assert.equal(container.children.length, 3);
  });

  test('refuses to mount on a page with an opaque origin', () => {
    const { SvcVault, container } = setup('null');
    assert.throws(() => SvcVault.mount(container, { vaultUrl: VAULT, ticket: 't', encryptionKey: KEY }), /http/);
  });
});

describe('messages from the frame', () => {
  test('accepts the vault frame and ignores other origins and other windows', () => {
    const { SvcVault, fromFrame } = setup();
    const { calls, options } = recorder();
    SvcVault.mount('#card', options);

    fromFrame({ type: 'ready' }, 'https://evil.example');
    fromFrame({ type: 'ready' }, VAULT, { postMessage() {} }); // right origin, another window
    fromFrame({ type: 'token', token: 'vtk_x', brand: 'visa', last4: '4242' }, 'https://evil.example');
    fromFrame({ type: 'error', code: 'PROVIDER_ERROR', message: 'x' }, 'null');
    assert.deepEqual(calls, []);

    fromFrame({ type: 'ready' });
    assert.deepEqual(calls, [['ready', null]]);
  });

  test('validates shapes and forwards only the documented fields', () => {
    const { SvcVault, fromFrame, deliver, iframe } = setup();
    const { calls, options } = recorder();
    SvcVault.mount('#card', options);

    deliver({ type: 'ready' }); // no channel tag
    deliver('ready');
    deliver(null);
    fromFrame({ type: 'change', field: 'pan', empty: false });
    fromFrame({ type: 'focus', field: 'toString' });
    fromFrame({ type: 'token', token: 'vtk_x', brand: 'visa', last4: '42a2' });
    fromFrame({ type: 'error', code: 'lower_case', message: 'x' });
    fromFrame({ type: 'resize', height: '999px' });
    fromFrame({ type: 'resize', height: 1e9 });
    assert.deepEqual(calls, []);
    assert.equal(iframe()!.style.height, '260px');

    fromFrame({
      type: 'change', field: 'number', empty: false, complete: true, valid: true, brand: 'elo', formComplete: false,
      number: '4011780000000000', // a misbehaving frame: must not reach the seller
    });
    fromFrame({ type: 'focus', field: 'cvv' });
    fromFrame({ type: 'blur', field: 'cvv' });
    fromFrame({ type: 'resize', height: 231.4 });
    assert.deepEqual(calls, [
      ['change', { field: 'number', empty: false, complete: true, valid: true, brand: 'elo', formComplete: false }],
      ['focus', { field: 'cvv' }],
      ['blur', { field: 'cvv' }],
    ]);
    assert.equal(iframe()!.style.height, '232px');
  });
});

describe('handle', () => {
  test('tokenize() waits for ready, posts to the vault origin only and resolves with the token', async () => {
    const { SvcVault, fromFrame, toFrame } = setup();
    const { calls, options } = recorder();
    const handle = SvcVault.mount('#card', options);

    const pending = handle.tokenize();
    handle.focus();
    assert.deepEqual(toFrame, [], 'nothing is sent before the frame is ready');
    fromFrame({ type: 'ready' });
    assert.deepEqual(toFrame, [
      { msg: { type: 'tokenize', channel: 'svc-vault' }, target: VAULT },
      { msg: { type: 'focus', channel: 'svc-vault' }, target: VAULT },
    ]);

    fromFrame({ type: 'token', token: 'vtk_abc', brand: 'visa', last4: '1111', extra: 'dropped' });
    assert.deepEqual(JSON.parse(JSON.stringify(await pending)), { token: 'vtk_abc', brand: 'visa', last4: '1111' });
    assert.deepEqual(calls.slice(1), [['token', { token: 'vtk_abc', brand: 'visa', last4: '1111' }]]);
    for (const { target } of toFrame) assert.notEqual(target, '*');
  });

  test('tokenize() rejects with the error code and calls onError', async () => {
    const { SvcVault, fromFrame } = setup();
    const { calls, options } = recorder();
    const handle = SvcVault.mount('#card', options);
    fromFrame({ type: 'ready' });

    const first = handle.tokenize();
    fromFrame({
      type: 'error', code: 'VALIDATION_ERROR', message: 'Verifique os dados do cartão.',
      details: [{ field: 'cvv', message: 'Código de segurança incompleto.' }, { bogus: true }],
    });
    await assert.rejects(first, (e: Json) => e.code === 'VALIDATION_ERROR' && e.details.length === 1 && e.details[0].field === 'cvv');

    const second = handle.tokenize();
    fromFrame({ type: 'error', code: 'TICKET_EXPIRED', message: 'expired' });
    await assert.rejects(second, (e: Json) => e.code === 'TICKET_EXPIRED' && e.message === 'expired');
    assert.deepEqual(calls.map((c) => c[0]), ['ready', 'error', 'error']);
  });

  test('a throwing seller callback does not stop the promise from settling', async () => {
    const { context, SvcVault, fromFrame } = setup();
    // The SDK rethrows callback errors from a timer, so they reach the console.
    const rethrown: Array<() => void> = [];
    context.setTimeout = (fn: () => void) => rethrown.push(fn);
    const handle = SvcVault.mount('#card', {
      vaultUrl: VAULT, ticket: 't', encryptionKey: KEY,
      onToken: () => { throw new Error('seller bug'); },
    });
    fromFrame({ type: 'ready' });
    const pending = handle.tokenize();
    fromFrame({ type: 'token', token: 'vtk_1', brand: 'elo', last4: '0000' });
    assert.equal((await pending).token, 'vtk_1');
    assert.equal(rethrown.length, 1);
    assert.throws(rethrown[0]!, /seller bug/);
  });

  test('unmount() removes the iframe and the listener, and rejects pending calls', async () => {
    const { SvcVault, container, listeners, fromFrame } = setup();
    const { calls, options } = recorder();
    const handle = SvcVault.mount('#card', options);
    assert.equal(listeners.size, 1);
    const pending = handle.tokenize();

    handle.unmount();
    assert.equal(container.children.length, 0);
    assert.equal(listeners.size, 0);
    await assert.rejects(pending, (e: Json) => e.code === 'UNMOUNTED');
    await assert.rejects(handle.tokenize(), (e: Json) => e.code === 'UNMOUNTED');
    fromFrame({ type: 'ready' });
    assert.deepEqual(calls, []);
    handle.unmount(); // twice is harmless
  });
});
