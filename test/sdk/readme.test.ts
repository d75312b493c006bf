/**
 * The README's TypeScript examples of the SDK compile: every ```ts block is
 * type-checked, strict, against packages/sdk/src (for '@svc-payments/sdk')
 * and Node's types, so a renamed method or field breaks this test and not a
 * reader's first try.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { REPO_ROOT } from '../helpers/server.js';

test("the README's TypeScript examples of the SDK type-check", () => {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/^( *)```ts\n([\s\S]*?)^\1```$/gm)].map((m) => m[2]!.replace(new RegExp(`^${m[1]}`, 'gm'), ''));
  assert.ok(blocks.length >= 3, `found ${blocks.length} ts blocks`);
  assert.ok(
    blocks.every((b) => b.includes("from '@svc-payments/sdk'")),
    'every example imports the SDK as a reader would',
  );

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-readme-sdk-'));
  try {
    const sdk = path.join(REPO_ROOT, 'packages', 'sdk', 'src', 'index.js');
    const files = blocks.map((block, i) => {
      const file = path.join(dir, `example-${i + 1}.mts`);
      fs.writeFileSync(file, `${block.replaceAll("'@svc-payments/sdk'", JSON.stringify(sdk))}\nexport {};\n`);
      return file;
    });
    const program = ts.createProgram(files, {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2023,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2023.d.ts'],
      types: ['node'],
      typeRoots: [path.join(REPO_ROOT, 'node_modules', '@types')],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file && d.start !== undefined ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1} ` : '';
      return where + ts.flattenDiagnosticMessageText(d.messageText, '\n');
    });
    assert.deepEqual(problems, []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
