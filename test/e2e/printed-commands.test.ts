/**
 * Every `svc` command a reader is given, in the README, docs/, the SDK's
 * README and what the service prints (CLI help, `svc listen` and `svc
 * trigger` usage, the start banner, an operator command's hint), runs the
 * repository's own script (`npm run svc -- …`) and can never resolve to a
 * package this project does not own: no `npx svc` (npx fetches the unrelated
 * `svc` from the npm registry) in a block of shell a reader pastes or in a
 * string the service holds, no bare `svc <command>` in either. The CLI runs
 * from dist/, as `npm test` builds it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import ts from 'typescript';
import { describeDemo } from '../../src/bootstrap.js';
import { DEMO } from '../../src/modules/demo/index.js';
import { createDeployment, REPO_ROOT, runCli, type Deployment } from '../helpers/server.js';

const SUBCOMMANDS = 'serve|api|vault|worker|company|key|account|providers|pix|user|listen|trigger';
/** `svc <subcommand>` where a shell would run it: at the start of a line or after `;`, `&`, `|`, `(`, `$(` or a backtick. */
const BARE = new RegExp(`(?:^|[;&|(\`]\\s*|\\$\\(\\s*)svc\\s+(?:${SUBCOMMANDS})\\b`, 'm');
const NPX = /\bnpx\s+(?:--?\S+\s+)*svc\b/i;

let deployment: Deployment;
before(async () => {
  deployment = await createDeployment();
});
after(() => deployment.destroy());

function documents(): { file: string; text: string }[] {
  const docs = fs.readdirSync(path.join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => path.join('docs', f));
  return ['README.md', path.join('packages', 'sdk', 'README.md'), ...docs].map((file) => ({ file, text: fs.readFileSync(path.join(REPO_ROOT, file), 'utf8') }));
}

const SHELL_FENCES = new Set(['sh', 'bash', 'shell', 'console']);

/** The lines of shell a reader pastes: those of fenced blocks marked sh, bash, shell or console (an unmarked block is output or a tree); comments left out. */
function shellLines(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const marker = /^ *```(\S*)\s*$/.exec(line);
    if (marker) fence = fence === undefined ? marker[1]! : undefined;
    else if (fence !== undefined && SHELL_FENCES.has(fence) && !line.trimStart().startsWith('#')) lines.push(line);
  }
  return lines;
}

test('no document gives npx svc or a bare svc command in a block of shell', () => {
  const found = documents();
  assert.ok(found.length >= 3);
  for (const { file, text } of found) {
    const lines = shellLines(text);
    assert.deepEqual(lines.filter((line) => NPX.test(line) || BARE.test(line)), [], `${file}: svc commands that do not run this repository's script`);
  }
  const readme = found[0]!.text;
  assert.ok(shellLines(readme).filter((line) => /\bnpm run (?:-s )?svc -- (?:listen|trigger)\b/.test(line)).length >= 3, 'listen and trigger are given as npm run svc -- …');
  // The checks catch what they are for.
  assert.ok(NPX.test('npx svc listen --forward-to x') && NPX.test('npx --yes svc listen'));
  assert.ok(BARE.test('svc listen --forward-to x') && BARE.test('KEY=$(svc key issue --json)'));
  assert.ok(!BARE.test('npm run svc -- listen --forward-to x') && !BARE.test('ls ~/.config/svc/listen.json'));
});

test('no string of the service or the SDK gives npx svc (comments may warn against it)', () => {
  const strings: { file: string; text: string }[] = [];
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (entry.name.endsWith('.ts')) collectStrings(file, strings);
    }
  };
  for (const dir of ['src', path.join('packages', 'sdk', 'src')]) visit(path.join(REPO_ROOT, dir));
  assert.ok(strings.length > 1000, `${strings.length} strings`);
  assert.deepEqual(strings.filter((s) => NPX.test(s.text)), []);
});

/** The text of every string and template literal of a TypeScript file (a template's parts joined). */
function collectStrings(file: string, into: { file: string; text: string }[]): void {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) into.push({ file, text: node.text });
    else if (ts.isTemplateExpression(node)) into.push({ file, text: node.head.text + node.templateSpans.map((span) => ` ${span.literal.text}`).join('') });
    ts.forEachChild(node, visit);
  };
  visit(source);
}

test('the CLI help, listen and trigger usage, the banner without a key file and an operator hint all say npm run svc --', async () => {
  const texts: [string, string][] = [];
  const help = await runCli(deployment, ['--help']);
  assert.equal(help.code, 0, help.stderr);
  texts.push(['svc --help', help.stdout]);
  for (const command of ['listen', 'trigger']) {
    const usage = await runCli(deployment, [command, '-h']);
    assert.equal(usage.code, 0, usage.stderr);
    texts.push([`svc ${command} -h`, usage.stdout]);
  }
  const banner = describeDemo({ companyId: 'cmp_x', companyName: 'Loja', key: undefined, accounts: DEMO.accounts, created: false }, 'http://localhost:3000');
  texts.push(['the start banner', banner]);
  const account = await runCli(deployment, ['account', 'create', '--document', '39053344705', '--name', 'Conta Nova']);
  assert.equal(account.code, 0, account.stderr);
  texts.push(['account create', account.stdout]);

  for (const [name, text] of texts) {
    assert.match(text, /npm run (?:-s )?svc -- /, name);
    assert.doesNotMatch(text, NPX, name);
    // In what the service prints, a command is `svc <subcommand>` wherever it stands: none is left bare.
    assert.doesNotMatch(text, new RegExp(`\\bsvc (?:${SUBCOMMANDS})\\b`), name);
  }
  assert.match(banner, /issue one with `npm run svc -- key issue --company cmp_x`/);
  assert.match(account.stdout, /approve it with npm run svc -- account approve --document 39053344705/);
});
