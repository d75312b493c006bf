/**
 * The error texts of the catalog (src/lib/i18n/messages), every entry
 * rendered, and the places in the source that write a text in every
 * language outside it. Both languages of an entry are checked by the type
 * system; what a test still checks is that each entry's Portuguese is not
 * its English left as it was, and that messages are made from the catalog
 * rather than written where the error is made.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { ERRORS, VAULT_REFUSAL } from '../../src/lib/i18n/messages/errors.js';
import { PROBLEMS } from '../../src/lib/i18n/messages/problems.js';
import type { Text } from '../../src/lib/i18n/text.js';

interface CatalogText {
  /** Where the entry is: `ERRORS.UNAUTHORIZED.invalidKey`, `PROBLEMS.maxLength`. */
  id: string;
  text: Text;
}

/** A value for any parameter: "7" as text, and a text of its own where an entry nests one. */
const ANY_PARAMETER = { en: 'nested', 'pt-BR': 'aninhado', toString: () => '7' };
const anyParameters = new Proxy({}, { get: () => ANY_PARAMETER });

function rendered(id: string, entry: Text | ((p: never) => Text)): CatalogText {
  return { id, text: typeof entry === 'function' ? entry(anyParameters as never) : entry };
}

/** Every entry of the catalog, those with parameters filled with ANY_PARAMETER. */
export function catalogTexts(): CatalogText[] {
  const texts: CatalogText[] = [rendered('VAULT_REFUSAL', VAULT_REFUSAL)];
  for (const [code, entries] of Object.entries(ERRORS)) {
    for (const [kind, entry] of Object.entries(entries)) texts.push(rendered(`ERRORS.${code}.${kind}`, entry));
  }
  for (const [kind, entry] of Object.entries(PROBLEMS)) texts.push(rendered(`PROBLEMS.${kind}`, entry));
  return texts;
}

interface SourcePlace {
  file: string;
  line: number;
}

function tsFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) tsFiles(full, out);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

const nameOf = (property: ts.ObjectLiteralElementLike): string | undefined =>
  ts.isPropertyAssignment(property) && (ts.isStringLiteral(property.name) || ts.isIdentifier(property.name)) ? property.name.text : undefined;

/** A text in both languages: `en` and `'pt-BR'` side by side (a map from languages to documents is not one). */
const isTextInBothLanguages = (node: ts.ObjectLiteralExpression): boolean => {
  const names = new Set(node.properties.map(nameOf));
  return names.has('en') && names.has('pt-BR');
};

/** Object literals with `en` and `'pt-BR'` properties in the TypeScript files under `dir`, except those under `except`. */
export function textsWrittenOutside(dir: string, except: string): SourcePlace[] {
  const places: SourcePlace[] = [];
  for (const file of tsFiles(dir)) {
    if (file.startsWith(except + path.sep)) continue;
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isObjectLiteralExpression(node) && isTextInBothLanguages(node)) {
        places.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return places;
}
