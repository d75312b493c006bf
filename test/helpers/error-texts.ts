/**
 * Finds every English text the service can put in an error body, in the
 * source itself (TypeScript's parser), so that a test can hold the
 * Portuguese catalog to it: a new `new DomainError(…, 'text')`, a new
 * `{ field, message: 'text' }` or a new Ajv keyword text without its
 * translation fails the test instead of reaching a client in English.
 *
 * A text is collected where it is written: an argument of a call that builds
 * an error (ERROR_BUILDERS), the value of a `message` or `reason` property,
 * the return value of a function that words a problem (WORDING_FUNCTIONS), or
 * an entry of a table of messages (MESSAGE_TABLES). A template literal
 * becomes its text with `{}` for each interpolation.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ERROR_BUILDERS = new Set(['DomainError', 'AppError', 'validationError', 'notFound', 'invalid', 'notRefundable', 'rateLimited', 'notPending']);
const WORDING_FUNCTIONS = new Set(['describe', 'badText', 'describeClientError', 'describeCardProblem', 'taxIdProblem']);
const MESSAGE_TABLES = new Set(['UNAVAILABLE']);
const MESSAGE_PROPERTIES = new Set(['message', 'reason']);

export interface SourceText {
  file: string;
  line: number;
  /** The text, `{}` for each interpolation. */
  text: string;
  /** The call it is an argument of, when it is one (`notFound` appends " not found"). */
  builder?: string;
}

function textOf(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((span) => `{}${span.literal.text}`).join('');
  return undefined;
}

function calleeName(node: ts.CallExpression | ts.NewExpression): string | undefined {
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

/** The string literals an expression can evaluate to: itself, the branches of a conditional, the fallback of `??` or `||`. */
function literals(node: ts.Expression): ts.Node[] {
  if (ts.isParenthesizedExpression(node)) return literals(node.expression);
  if (ts.isConditionalExpression(node)) return [...literals(node.whenTrue), ...literals(node.whenFalse)];
  if (ts.isBinaryExpression(node) && [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(node.operatorToken.kind)) {
    return [...literals(node.left), ...literals(node.right)];
  }
  return textOf(node) === undefined ? [] : [node];
}

/** Inside a schema's `example` or `examples` (request data, not an error). */
function inExample(node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if (ts.isPropertyAssignment(at) && ts.isIdentifier(at.name) && (at.name.text === 'example' || at.name.text === 'examples')) return true;
  }
  return false;
}

function enclosingFunctionName(node: ts.Node): string | undefined {
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if (ts.isFunctionDeclaration(at) && at.name) return at.name.text;
    if ((ts.isArrowFunction(at) || ts.isFunctionExpression(at)) && ts.isVariableDeclaration(at.parent) && ts.isIdentifier(at.parent.name)) return at.parent.name.text;
    if (ts.isMethodDeclaration(at) && ts.isIdentifier(at.name)) return at.name.text;
  }
  return undefined;
}

function scanFile(file: string, out: SourceText[]): void {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const add = (node: ts.Node, builder?: string) => {
    const text = textOf(node);
    if (text === undefined) return;
    out.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text, ...(builder ? { builder } : {}) });
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && ERROR_BUILDERS.has(calleeName(node) ?? '')) {
      const name = calleeName(node)!;
      // The first argument of DomainError/AppError is the code, of validationError the field.
      const args = [...(node.arguments ?? [])].slice(['DomainError', 'AppError', 'validationError'].includes(name) ? 1 : 0);
      for (const arg of args) for (const lit of literals(arg)) add(lit, name);
    } else if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && MESSAGE_PROPERTIES.has(node.name.text) && !inExample(node)) {
      for (const lit of literals(node.initializer)) add(lit);
    } else if (ts.isReturnStatement(node) && node.expression && WORDING_FUNCTIONS.has(enclosingFunctionName(node) ?? '')) {
      for (const lit of literals(node.expression)) add(lit);
    } else if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && MESSAGE_TABLES.has(node.name.text) && node.initializer && ts.isObjectLiteralExpression(node.initializer)) {
      for (const prop of node.initializer.properties) if (ts.isPropertyAssignment(prop)) for (const lit of literals(prop.initializer)) add(lit);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

function tsFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) tsFiles(full, out);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

/** Every error text written in `dirs` (folders or files). */
export function errorTextsIn(dirs: string[]): SourceText[] {
  const out: SourceText[] = [];
  for (const dir of dirs) for (const file of fs.statSync(dir).isDirectory() ? tsFiles(dir) : [dir]) scanFile(file, out);
  return out;
}
