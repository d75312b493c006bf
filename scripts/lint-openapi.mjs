#!/usr/bin/env node
// Lints the API's and the vault's OpenAPI documents with Redocly's rules
// (redocly.yaml: the recommended set, and why any rule is changed), without
// starting a server: src/openapi-documents.ts builds both apps in-process and
// reads the documents they would serve. Any error fails `npm run lint`.
// `--write DIR` also writes api.json and vault.json to DIR.
import fs from 'node:fs';
import path from 'node:path';
import { formatProblems, getTotals, lintFromString, loadConfig } from '@redocly/openapi-core';
import { openApiDocuments } from './openapi-documents.mjs';

const documents = await openApiDocuments();

const writeTo = process.argv.includes('--write') ? process.argv[process.argv.indexOf('--write') + 1] : undefined;
const config = await loadConfig({ configPath: 'redocly.yaml' });
let errors = 0;
for (const [name, document] of Object.entries(documents)) {
  const source = JSON.stringify(document, null, 2);
  if (writeTo) {
    fs.mkdirSync(writeTo, { recursive: true });
    fs.writeFileSync(path.join(writeTo, `${name}.json`), source);
  }
  const problems = await lintFromString({ source, absoluteRef: path.resolve(`${name}.openapi.json`), config });
  const totals = getTotals(problems);
  if (problems.length > 0) formatProblems(problems, { format: 'stylish', totals, version: 'openapi-core' });
  console.log(`OpenAPI ${name}: ${totals.errors} errors, ${totals.warnings} warnings`);
  errors += totals.errors;
}
process.exit(errors > 0 ? 1 : 0);
