import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import type { CommandLine, CommandResult } from './commands.js';
import { listenForCommands, sendCommand } from './socket.js';

const silent = pino({ level: 'silent' });

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'svc-sock-'));
}

/** Answers what it was asked, so a test sees the command line arrive whole. */
async function echo(line: CommandLine): Promise<CommandResult> {
  return { code: line.words.length, stdout: JSON.stringify(line), stderr: 'err\n' };
}

test('a command goes to the listening process and its answer comes back whole', async () => {
  const dir = tempDir();
  const server = await listenForCommands(dir, echo, silent);
  try {
    const line = { words: ['key', 'issue'], values: { company: 'cmp_x', json: true } };
    assert.deepEqual(await sendCommand(dir, line), { code: 2, stdout: JSON.stringify(line), stderr: 'err\n' });
    assert.equal(fs.statSync(path.join(dir, 'svc.sock')).mode & 0o777, 0o600);
  } finally {
    await server.close();
  }
  assert.equal(fs.existsSync(path.join(dir, 'svc.sock')), false, 'closing removes the socket file');
  fs.rmSync(dir, { recursive: true });
});

test('with no server (no file, or a file left by a process that is gone) the CLI is told to run the command itself', async () => {
  const dir = tempDir();
  assert.equal(await sendCommand(dir, { words: ['key', 'list'], values: {} }), undefined);
  fs.writeFileSync(path.join(dir, 'svc.sock'), '');
  assert.equal(await sendCommand(dir, { words: ['key', 'list'], values: {} }), undefined);
  // The next server replaces what was left.
  const server = await listenForCommands(dir, echo, silent);
  try {
    assert.equal((await sendCommand(dir, { words: ['a'], values: {} }))?.code, 1);
  } finally {
    await server.close();
  }
  fs.rmSync(dir, { recursive: true });
});

test('what is not a command line is dropped without running anything', async () => {
  const dir = tempDir();
  let ran = 0;
  const server = await listenForCommands(dir, async (line) => (ran++, echo(line)), silent);
  const answerTo = (payload: string) =>
    new Promise<string>((resolve) => {
      const socket = net.connect(path.join(dir, 'svc.sock'), () => socket.write(payload));
      let text = '';
      socket.on('data', (chunk) => (text += String(chunk)));
      socket.on('close', () => resolve(text));
      socket.on('error', () => {});
    });
  try {
    for (const payload of ['not json\n', '{"words":"key issue","values":{}}\n', '{"words":["key"],"values":{"n":1}}\n', 'x'.repeat(70 * 1024)]) {
      assert.equal(await answerTo(payload), '', payload.slice(0, 40));
    }
    assert.equal(ran, 0);
  } finally {
    await server.close();
  }
  fs.rmSync(dir, { recursive: true });
});
