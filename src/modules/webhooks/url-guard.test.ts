import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { request } from 'undici';
import {
  assertPublicTarget,
  checkWebhookUrl,
  createGuardedDispatcher,
  guardedLookup,
  isPublicAddress,
  type DnsLookupAll,
  type Resolver,
} from './url-guard.js';

// Injected DNS so no test depends on the network; unknown names do not resolve.
const zone: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34'],
  'v6.example.com': ['2606:4700:4700::1111'],
  'internal.example.com': ['10.0.0.5'],
  'mixed.example.com': ['93.184.216.34', '10.0.0.5'],
  'metadata.example.com': ['169.254.169.254'],
  'loop.example.com': ['127.0.0.1'],
  'empty.example.com': [],
  localhost: ['127.0.0.1', '::1'],
  'evil.localhost': ['93.184.216.34'],
};
const resolve: Resolver = async (host) => {
  const answers = zone[host];
  if (answers === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answers;
};
const strict = { allowLoopback: false, resolve };
const loopbackAllowed = { allowLoopback: true, resolve };

async function refused(raw: string, opts = strict): Promise<string> {
  const r = await checkWebhookUrl(raw, opts);
  assert.equal(r.ok, false, `${raw} should be refused`);
  return r.ok ? '' : r.reason.en;
}
async function allowed(raw: string, opts = strict): Promise<void> {
  const r = await checkWebhookUrl(raw, opts);
  assert.ok(r.ok, `${raw} should be allowed, got ${r.ok ? '' : r.reason}`);
}

const refusedUrls = [
  // tricky spellings of loopback (WHATWG normalises the IPv4 ones to 127.0.0.1)
  'https://127.1', 'https://2130706433', 'https://0x7f.0.0.1', 'https://0177.0.0.1', 'https://127.0.0.1.',
  'https://[::1]', 'https://[::ffff:10.0.0.1]', 'https://[::ffff:7f00:1]', 'https://[::ffff:127.0.0.1]',
  'https://169.254.169.254', 'https://100.64.0.1',
  'https://localhost', 'https://localhost.', 'https://LOCALHOST', 'https://foo.localhost', 'https://foo.localhost.',
  // scheme and credentials
  'http://example.com', 'ftp://example.com/x', 'https://user:pass@example.com', 'https://user@example.com',
  'https://example.com@127.0.0.1',
  // private, unspecified, multicast, broadcast, reserved
  'https://10.0.0.1', 'https://172.16.0.1', 'https://192.168.1.1', 'https://0.0.0.0', 'https://224.0.0.1',
  'https://255.255.255.255', 'https://192.0.2.1', 'https://240.0.0.1',
  'https://[fc00::1]', 'https://[fd12:3456::1]', 'https://[fe80::1]', 'https://[::]', 'https://[ff02::1]',
  'https://[64:ff9b::a00:1]', 'https://[2002:a00:1::1]', 'https://[2001:db8::1]', 'https://[::7f00:1]',
  // names whose (injected) DNS answer is not acceptable
  'https://internal.example.com/hook', 'https://mixed.example.com/hook', 'https://metadata.example.com',
  'https://nowhere.example.com', 'https://empty.example.com',
  // not URLs
  'not a url', '', `https://example.com/${'a'.repeat(2048)}`,
];
for (const raw of refusedUrls) {
  test(`refused: ${JSON.stringify(raw.slice(0, 60))}`, async () => {
    await refused(raw);
  });
}

test('reasons are short, specific and never echo credentials', async () => {
  assert.equal(await refused('http://example.com'), 'scheme must be https');
  const creds = await refused('https://user:s3cret@example.com');
  assert.equal(creds, 'credentials in the URL are not allowed');
  assert.ok(!creds.includes('s3cret'));
  assert.equal(await refused('https://example.com@127.0.0.1'), 'credentials in the URL are not allowed');
  assert.equal(await refused('https://2130706433'), 'IP address is not public');
  assert.equal(await refused('https://foo.localhost'), 'localhost is not allowed');
  assert.equal(await refused('https://mixed.example.com'), 'host resolves to a non-public address');
  assert.equal(await refused('https://nowhere.example.com'), 'host does not resolve');
  assert.equal(await refused('https://empty.example.com'), 'host does not resolve');
});

test('public targets are allowed and the parsed URL is returned', async () => {
  await allowed('https://8.8.8.8/hook');
  await allowed('https://[2606:4700:4700::1111]/x');
  await allowed('https://[::ffff:8.8.8.8]/x');
  await allowed('https://hooks.example.com/hook?a=1');
  await allowed('https://v6.example.com:8443/x');
  const r = await checkWebhookUrl('https://HOOKS.example.com/p', strict);
  assert.ok(r.ok);
  assert.equal(r.url.hostname, 'hooks.example.com');
});

test('ports: the default 443 or 1024 and above; 0, 22 and other system ports are refused', async () => {
  for (const raw of ['https://hooks.example.com:0/x', 'https://hooks.example.com:22/x', 'https://hooks.example.com:25/x', 'https://8.8.8.8:1023/x']) {
    assert.match(await refused(raw), /port must be 443 or 1024 and above/);
  }
  await allowed('https://hooks.example.com:443/x');
  await allowed('https://hooks.example.com:1024/x');
  await allowed('https://hooks.example.com:65535/x');
});

test('the URL returned is the WHATWG serialization; backslashes before the query are refused', async () => {
  const r = await checkWebhookUrl('HTTPS://Hooks.Example.COM:443/a/./b/../hook?x=1', strict);
  assert.ok(r.ok);
  assert.equal(r.url.href, 'https://hooks.example.com/a/hook?x=1');
  for (const raw of ['https:\\\\hooks.example.com\\hook', 'https://hooks.example.com\\@8.8.8.8/x', 'https://hooks.example.com/a\\b']) {
    assert.match(await refused(raw), /backslashes are not allowed/, raw);
  }
  await allowed('https://hooks.example.com/hook?path=a\\b');
});

test('IP literals are checked without asking DNS', async () => {
  const calls: string[] = [];
  const spy: Resolver = async (h) => { calls.push(h); return ['10.0.0.1']; };
  await allowed('https://8.8.8.8', { allowLoopback: false, resolve: spy });
  await refused('https://127.1', { allowLoopback: false, resolve: spy });
  assert.deepEqual(calls, []);
});

test('the loopback setting admits loopback and nothing else', async () => {
  await allowed('https://127.0.0.1:8443/hook', loopbackAllowed);
  await allowed('https://127.1', loopbackAllowed);
  await allowed('https://[::1]/hook', loopbackAllowed);
  await allowed('https://[::ffff:127.0.0.1]/hook', loopbackAllowed);
  await allowed('https://loop.example.com', loopbackAllowed);
  await allowed('https://localhost/hook', loopbackAllowed);
  for (const raw of ['https://10.0.0.1', 'https://169.254.169.254', 'https://[::ffff:10.0.0.1]', 'https://0.0.0.0',
    'https://internal.example.com', 'http://127.0.0.1', 'https://u:p@127.0.0.1']) {
    await refused(raw, loopbackAllowed);
  }
  // A localhost name must resolve to loopback only, even with the setting on.
  assert.equal(await refused('https://evil.localhost', loopbackAllowed), 'localhost name resolves to a non-loopback address');
});

test('isPublicAddress: only ipaddr.js "unicast" (IPv6 within 2000::/3) is public', () => {
  for (const ip of ['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
    assert.equal(isPublicAddress(ip, false), true, ip);
  }
  for (const ip of ['127.0.0.1', '10.1.2.3', '172.31.255.255', '192.168.0.1', '100.127.255.255', '169.254.1.1',
    '0.0.0.0', '0.1.2.3', '224.0.0.251', '255.255.255.255', '192.0.0.8', '192.0.2.10', '198.51.100.1',
    '203.0.113.5', '198.18.0.1', '240.0.0.1', '192.88.99.1', '::', '::1', 'fe80::1', 'fc00::1', 'fec0::1',
    'ff02::1', '::ffff:192.168.0.1', '::ffff:0:a00:1', '64:ff9b::a00:1', '2002:a00:1::1', '2001::1',
    '2001:2::1', '2001:db8::1', '100::1', '::7f00:1', '3fff::1', 'not-an-ip', '1.2.3', '']) {
    assert.equal(isPublicAddress(ip, false), false, ip);
  }
  for (const ip of ['127.0.0.1', '127.255.0.9', '::1', '::ffff:127.0.0.1']) assert.equal(isPublicAddress(ip, true), true, ip);
  for (const ip of ['10.0.0.1', '169.254.169.254', '::', 'fe80::1']) assert.equal(isPublicAddress(ip, true), false, ip);
});

test('assertPublicTarget checks IP literals and localhost names before connecting', () => {
  const code = { code: 'EWEBHOOKPRIVATE' };
  assert.throws(() => assertPublicTarget(new URL('https://[::ffff:10.0.0.1]/'), { allowLoopback: false }), code);
  assert.throws(() => assertPublicTarget(new URL('https://127.0.0.1/'), { allowLoopback: false }), code);
  assert.throws(() => assertPublicTarget(new URL('https://foo.localhost/'), { allowLoopback: false }), code);
  assert.throws(() => assertPublicTarget(new URL('https://10.0.0.1/'), { allowLoopback: true }), code);
  assertPublicTarget(new URL('https://127.0.0.1/'), { allowLoopback: true });
  assertPublicTarget(new URL('https://8.8.8.8/'), { allowLoopback: false });
  assertPublicTarget(new URL('https://hooks.example.com/'), { allowLoopback: false }); // names: checked at lookup
});

function fakeDns(answers: LookupAddress[]): DnsLookupAll {
  return (_host, _opts, cb) => queueMicrotask(() => cb(null, answers));
}
function runLookup(lookup: ReturnType<typeof guardedLookup>, host: string, all: boolean) {
  return new Promise<{ err: NodeJS.ErrnoException | null; address: unknown; family?: number }>((done) =>
    lookup(host, { all }, (err, address, family) => done({ err, address, family })));
}

test('guardedLookup refuses a private answer at connect time (DNS may have changed)', async () => {
  const rebound = guardedLookup({ allowLoopback: false, lookup: fakeDns([{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.5', family: 4 }]) });
  const r = await runLookup(rebound, 'hooks.example.com', true);
  assert.equal(r.err?.code, 'EWEBHOOKPRIVATE');
  const one = await runLookup(rebound, 'hooks.example.com', false);
  assert.equal(one.err?.code, 'EWEBHOOKPRIVATE');

  const good = guardedLookup({ allowLoopback: false, lookup: fakeDns([{ address: '93.184.216.34', family: 4 }]) });
  const all = await runLookup(good, 'hooks.example.com', true);
  assert.equal(all.err, null);
  assert.deepEqual(all.address, [{ address: '93.184.216.34', family: 4 }]);
  const single = await runLookup(good, 'hooks.example.com', false);
  assert.deepEqual([single.err, single.address, single.family], [null, '93.184.216.34', 4]);

  const failing: DnsLookupAll = (_h, _o, cb) => cb(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }), []);
  assert.equal((await runLookup(guardedLookup({ allowLoopback: false, lookup: failing }), 'x.example', true)).err?.code, 'ENOTFOUND');
  const empty = await runLookup(guardedLookup({ allowLoopback: false, lookup: fakeDns([]) }), 'x.example', true);
  assert.equal(empty.err?.code, 'EWEBHOOKPRIVATE');
});

async function withServer(handler: http.RequestListener, fn: (port: number) => Promise<void>): Promise<void> {
  const server = http.createServer(handler);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  try {
    await fn((server.address() as AddressInfo).port);
  } finally {
    server.closeAllConnections();
    await new Promise((ok) => server.close(ok));
  }
}

test('real connections: the dispatcher refuses loopback unless allowed, and never follows redirects', async () => {
  await withServer((req, res) => {
    if (req.url === '/redirect') {
      res.writeHead(302, { location: 'https://93.184.216.34/elsewhere' }).end();
    } else {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    }
  }, async (port) => {
    const guarded = createGuardedDispatcher({ allowLoopback: false, timeoutMs: 2000 });
    const loopback = createGuardedDispatcher({ allowLoopback: true, timeoutMs: 2000 });
    try {
      // Name path: localhost resolves to loopback, the lookup refuses it.
      await assert.rejects(request(`http://localhost:${port}/`, { dispatcher: guarded }), { code: 'EWEBHOOKPRIVATE' });
      // IP-literal path: lookup is skipped by net, the connector refuses it.
      await assert.rejects(request(`http://127.0.0.1:${port}/`, { dispatcher: guarded }), { code: 'EWEBHOOKPRIVATE' });

      const ok = await request(`http://localhost:${port}/`, { dispatcher: loopback });
      assert.equal(ok.statusCode, 200);
      assert.equal(await ok.body.text(), 'ok');

      const redirect = await request(`http://127.0.0.1:${port}/redirect`, { dispatcher: loopback });
      assert.equal(redirect.statusCode, 302);
      assert.equal(redirect.headers.location, 'https://93.184.216.34/elsewhere');
      await redirect.body.dump();
    } finally {
      await Promise.all([guarded.close(), loopback.close()]);
    }
  });
});
