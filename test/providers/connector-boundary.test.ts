/**
 * Connectors only speak to their provider: no file of a connector's folder
 * but its provider.ts (the connector joined to the core, for tests) imports
 * the database, a repository or the one-statement machinery, and nothing
 * router.ts builds on imports it back (the import loop through ConnectorDeps).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const PROVIDERS = path.resolve('src/modules/providers');
const CONNECTORS = ['bcb-pix', 'cielo'];

/** The module specifiers a TypeScript file imports or re-exports. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1]!);
}

test('a connector touches no database: its files import neither db/ nor a repository', () => {
  let read = 0;
  for (const connector of CONNECTORS) {
    const dir = path.join(PROVIDERS, connector);
    for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.ts') && n !== 'provider.ts' && n !== 'index.ts')) {
      const imports = importsOf(path.join(dir, name));
      read += imports.length;
      for (const specifier of imports) {
        assert.ok(!/\/db\/|repo\.js$|one-statement|connected-provider|router\.js$/.test(specifier), `${connector}/${name} imports ${specifier}`);
      }
    }
  }
  assert.ok(read > 10, 'the connectors\' imports were read');
});

test('nothing router.ts builds on imports it back: the connectors, the capabilities, the core', () => {
  const core = ['capabilities.ts', 'connected-provider.ts', 'provider.ts', 'repo.ts'];
  const files = [...core, ...[...CONNECTORS, 'simulated'].flatMap((dir) => fs.readdirSync(path.join(PROVIDERS, dir)).filter((n) => n.endsWith('.ts')).map((n) => `${dir}/${n}`))];
  assert.ok(files.length > 10);
  for (const name of files) {
    for (const specifier of importsOf(path.join(PROVIDERS, name))) assert.ok(!/router\.js$/.test(specifier), `${name} imports ${specifier}`);
  }
});
