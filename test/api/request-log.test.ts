/**
 * The request log at LOG_LEVEL=info: a follower's polls of the event log
 * (`GET /v2/events?after=…`, twice a second from `svc listen`) answered
 * without error are written at debug, so they do not bury the other lines;
 * every other request, a poll refused included, is one line at info.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildApp } from '../../src/app.js';
import { serializeRequest } from '../../src/http/log-serializers.js';
import { firstIdAt } from '../../src/lib/ids.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/db.js';

interface Line {
  level: number;
  msg: string;
  req?: { method: string; url: string };
  res?: { statusCode: number };
}

const INFO = 30;
const DEBUG = 20;

/** An app over `t` whose log lines at `level` and above are kept, parsed. */
async function loggedApp(t: TestApp, level: 'info' | 'debug'): Promise<{ app: FastifyInstance; lines: Line[] }> {
  const lines: Line[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n')) if (text) lines.push(JSON.parse(text) as Line);
      done();
    },
  });
  const logger = pino({ level, serializers: { req: serializeRequest } }, sink);
  return { app: await buildApp({ ...t.deps, logger }, t.services), lines };
}

for (const engine of engines()) {
  describe(`request log (${engine})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine);
    });
    after(() => t.close());

    const poll = `/v2/events?after=${firstIdAt('evt', 0)}&limit=100`;
    const completed = (lines: Line[], url: string) => lines.filter((l) => l.msg === 'request completed' && l.req?.url.startsWith(url));

    test('at info, 20 polls of the event log write no line; the other requests one each, a refused poll included', async () => {
      const { app, lines } = await loggedApp(t, 'info');
      try {
        for (let i = 0; i < 20; i++) assert.equal((await app.inject({ method: 'GET', url: poll, headers: { authorization: `Bearer ${t.key}` } })).statusCode, 200);
        assert.deepEqual(completed(lines, '/v2/events?after='), [], 'no poll at info');

        const list = await app.inject({ method: 'GET', url: '/v2/events?limit=1', headers: { authorization: `Bearer ${t.key}` } });
        assert.equal(list.statusCode, 200);
        const refused = await app.inject({ method: 'GET', url: poll });
        assert.equal(refused.statusCode, 401);
        const badCursor = await app.inject({ method: 'GET', url: '/v2/events?after=evt_x', headers: { authorization: `Bearer ${t.key}` } });
        assert.equal(badCursor.statusCode, 400);
        const transactions = await app.inject({ method: 'GET', url: '/v2/transactions?limit=1', headers: { authorization: `Bearer ${t.key}` } });
        assert.equal(transactions.statusCode, 200);

        assert.deepEqual(
          lines.filter((l) => l.msg === 'request completed').map((l) => [l.level, l.req?.url, l.res?.statusCode]),
          [
            [INFO, '/v2/events?limit=[redacted]', 200],
            [INFO, '/v2/events?after=[redacted]&limit=[redacted]', 401],
            [INFO, '/v2/events?after=[redacted]', 400],
            [INFO, '/v2/transactions?limit=[redacted]', 200],
          ],
        );
      } finally {
        await app.close();
      }
    });

    test('at debug the polls are there, one line each', async () => {
      const { app, lines } = await loggedApp(t, 'debug');
      try {
        for (let i = 0; i < 3; i++) assert.equal((await app.inject({ method: 'GET', url: poll, headers: { authorization: `Bearer ${t.key}` } })).statusCode, 200);
        assert.deepEqual(completed(lines, '/v2/events?after=').map((l) => [l.level, l.res?.statusCode]), [
          [DEBUG, 200],
          [DEBUG, 200],
          [DEBUG, 200],
        ]);
      } finally {
        await app.close();
      }
    });
  });
}
