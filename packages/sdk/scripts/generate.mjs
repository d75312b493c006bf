#!/usr/bin/env node
// Writes src/openapi.ts from the API's OpenAPI document.
//
//   node packages/sdk/scripts/generate.mjs [URL]
//
// Without a URL, the document is built in-process from the route schemas
// (scripts/openapi-documents.mjs, no server, no database); with one
// (http://localhost:3000), the /openapi.json of that running server is used.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiDocuments } from '../../../scripts/openapi-documents.mjs';
import { typesFromDocument } from './openapi-types.mjs';

const OUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'openapi.ts');

async function fetchDocument(baseUrl) {
  const res = await fetch(new URL('/openapi.json', baseUrl));
  if (!res.ok) throw new Error(`GET /openapi.json answered ${res.status}`);
  return res.json();
}

const from = process.argv[2];
const document = from ? await fetchDocument(from) : (await openApiDocuments()).api;
fs.writeFileSync(OUT, await typesFromDocument(document));
console.log(`Wrote ${path.relative(process.cwd(), OUT)} from ${from ? `${from}/openapi.json` : 'the route schemas'}.`);
