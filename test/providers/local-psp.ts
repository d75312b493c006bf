/**
 * A PSP's API Pix (BCB standard v2.9.0) in memory, for the bcb-api-pix
 * connector's tests: real HTTPS with the test CA's server certificate and
 * mutual TLS (a client certificate the test CA did not issue is refused in
 * the handshake), an OAuth2 client-credentials token endpoint, and the cob,
 * pix, devolução and webhook routes.
 *
 * Every request and every response is validated against the official
 * OpenAPI document with openapi-backend: a request that breaks it is answered
 * 400 and recorded in `violations`, and so is a response that would break it
 * (a bug here). Tests assert `violations` is empty.
 *
 * The document is read as published, with three corrections of its own
 * mistakes (see `loadSpec`), and with an operationId added to each operation
 * (the document has none; openapi-backend keys its validators by them).
 */
import fs from 'node:fs';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { OpenAPIBackend, type Document, type Operation } from 'openapi-backend';
import { Ajv } from 'ajv';
import * as ajvFormats from 'ajv-formats';
import YAML from 'yaml';
import { decimalToCents } from '../../src/lib/money.js';
import { buildDynamicBrCode } from '../../src/modules/pix/br-code.js';
import type { TestCa } from '../helpers/test-ca.js';

export const SPEC_FILE = '/work/shared/reference/bcb-api-pix-2.9.0.openapi.yaml';
const API_ROOT = '/api/v2';
const ERROR_TYPE = 'https://pix.bcb.gov.br/api/v2/error/';
/** The PSP's ISPB, in every endToEndId it issues. */
const ISPB = '12345678';
// ajv-formats is CommonJS; under ESM its function arrives as the `default` export (as in src/http/validation.ts).
const addFormats = ajvFormats.default as unknown as <T>(ajv: T) => T;
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

type Json = Record<string, unknown>;

interface PixState {
  endToEndId: string;
  txid: string;
  valor: string;
  horario: string;
  chave: string;
  devolucoes: Json[];
}

export interface CobState {
  txid: string;
  status: string;
  revisao: number;
  body: Json;
  criacao: string;
  location: string;
  locId: number;
  pixCopiaECola: string;
  pix: PixState[];
}

export interface LocalPspOptions {
  ca: TestCa;
  clientId: string;
  clientSecret: string;
  pixKey: string;
  /** Where `pay` posts notifications, instead of the registered webhook URL + /pix (the service listens on plain http in tests). */
  notifyTo?: string;
  /** Token lifetime (s). */
  tokenTtlSeconds?: number;
  /** Items per page of GET /pix when the client does not say. */
  pageSize?: number;
  /** Validate requests and answers against the BCB document (default true; the bench turns it off to time the service, not the validator). */
  validate?: boolean;
  /** Every answer (token and API) is held this long (ms), as a real PSP takes; default 0. `delay` changes it later. */
  delayMs?: number;
  /** How long an idle connection is kept open (ms); Node's default (5 s) unless given. PSPs' gateways keep theirs a minute or more. */
  keepAliveMs?: number;
}

export interface LocalPsp {
  apiUrl: string;
  oauthUrl: string;
  cobs: Map<string, CobState>;
  /** Token requests received (each one with a valid client certificate). */
  tokenRequests: number;
  /** TLS handshakes refused (a client certificate the test CA did not issue, or none). */
  tlsRefusals: number;
  /** API requests received: method, path (below the API root), parsed body. */
  requests: { method: string; path: string; body: unknown }[];
  /** Requests and responses that broke the OpenAPI document. */
  violations: string[];
  /** The tokens issued so far; `revokeTokens` makes the API answer 401 to them. */
  issuedTokens: string[];
  revokeTokens(): void;
  pay(txid: string, opts?: { amountDecimal?: string; notify?: boolean; deliverTo?: string }): Promise<string>;
  /** Posts a notification; one not `forged` is checked against the webhook callback's body schema. */
  postNotification(body: unknown, to?: string, forged?: boolean): Promise<number>;
  /** 'status503': the API answers 503; 'destroy': it closes the socket without answering; 'off': normal. */
  failing(mode: 'off' | 'status503' | 'destroy'): void;
  /** The API stops answering: requests are held open until `silent(false)` or close. */
  silent(on: boolean): void;
  /** Every answer from now on (token and API) is held `ms` before it is sent; 0: at once. */
  delay(ms: number): void;
  /** TLS connections accepted so far (each one a mutual-TLS handshake). */
  connections: number;
  /** Every devolução EM_PROCESSAMENTO becomes DEVOLVIDO (or NAO_REALIZADO, see refuseRefunds). */
  settleRefunds(): void;
  /** Devoluções settled from now on fail (NAO_REALIZADO with this `motivo`); undefined: they succeed. */
  refuseRefunds(motivo: string | undefined): void;
  close(): Promise<void>;
}

/**
 * The document, corrected where it contradicts itself:
 *  - the CPF patterns are written as a JavaScript literal, `/^\d{11}$/`,
 *    which as an OpenAPI (ECMA-262) pattern matches no CPF: read `^\d{11}$`;
 *  - PixConsultados requires `cobs` but has the list in `pix`: require `pix`.
 */
function loadSpec(): Document {
  const text = fs.readFileSync(SPEC_FILE, 'utf8').replaceAll('"/^\\\\d{11}$/"', '"^\\\\d{11}$"');
  const doc = YAML.parse(text) as Json & { paths: Record<string, Record<string, Json>>; components: { schemas: Record<string, Json> } };
  const consultados = doc.components.schemas.PixConsultados;
  if (consultados) consultados.required = ['parametros'];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of ['get', 'put', 'post', 'patch', 'delete']) {
      const op = item[method];
      if (op && typeof op === 'object') op.operationId = `${method.toUpperCase()} ${path}`;
    }
  }
  return doc as unknown as Document;
}

/**
 * The webhook callback's body (requestBodies.WebhookPixBody): openapi-backend
 * validates operations, not callbacks, so this one is compiled with Ajv.
 */
function compileNotificationSchema(doc: Document): (body: unknown) => { valid: boolean; errors: string } {
  const ajv = addFormats(new Ajv({ strict: false, validateSchema: false }));
  ajv.addSchema({ components: doc.components } as object, 'spec');
  const validate = ajv.getSchema('spec#/components/requestBodies/WebhookPixBody/content/application~1json/schema');
  if (!validate) throw new Error('WebhookPixBody not found in the document');
  return (body) => {
    const valid = validate(body) === true;
    return { valid, errors: (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`).join('; ') };
  };
}

let specApi: Promise<OpenAPIBackend> | undefined;
/** One validator per process: compiling the document's schemas takes a while. */
function validator(): Promise<OpenAPIBackend> {
  specApi ??= (async () => {
    // Formats (date-time, uri, …) are checked too: openapi-backend ignores them unless given.
    const api = new OpenAPIBackend({
      definition: loadSpec(),
      apiRoot: '/',
      strict: false,
      quick: false,
      validate: true,
      coerceTypes: true,
      customizeAjv: (ajv) => {
        addFormats(ajv);
        return ajv;
      },
    });
    await api.init();
    return api;
  })();
  return specApi;
}

const randomAlnum = (n: number): string => Array.from(randomBytes(n), (b) => ALNUM[b % ALNUM.length]).join('');

/** E + ISPB + yyyyMMddHHmm + 11 alphanumerics: 32 characters. */
function newEndToEndId(at: Date): string {
  const stamp = at.toISOString().replace(/[-:T]/g, '').slice(0, 12);
  return `E${ISPB}${stamp}${randomAlnum(11)}`;
}

/** A `valor` the request validation already checked (\d{1,10}\.\d{2}), in centavos. */
const decimalCents = (decimal: string): number => decimalToCents(decimal) ?? NaN;

const problem = (status: number, type: string, title: string, detail?: string): { status: number; body: Json } => ({
  status,
  body: { type: `${ERROR_TYPE}${type}`, title, status, ...(detail ? { detail } : {}) },
});

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The service's variables that point its bcb-api-pix connector at this PSP, with the client certificate the test CA issued. */
export function pixProviderEnv(psp: LocalPsp, ca: TestCa, client: Pick<LocalPspOptions, 'clientId' | 'clientSecret' | 'pixKey'>): Record<string, string> {
  return {
    PIX_PROVIDER: 'bcb-api-pix',
    PIX_API_URL: psp.apiUrl,
    PIX_OAUTH_URL: psp.oauthUrl,
    PIX_CLIENT_ID: client.clientId,
    PIX_CLIENT_SECRET: client.clientSecret,
    PIX_CERT_FILE: ca.client.certFile,
    PIX_KEY_FILE: ca.client.keyFile,
    PIX_CA_FILE: ca.caFile,
    PIX_KEY: client.pixKey,
  };
}

/**
 * The document's operations as anchored regular expressions, built once.
 * openapi-backend's matchOperation and parseRequest cost about 0.25 ms a
 * request (deep clones of the request), which in `npm run bench` was a third
 * of this stand-in's CPU on the cores it shares with the service. A template
 * with fewer parameters wins, so a literal segment beats a parameter.
 */
function operationMatcher(operations: Operation[]): (method: string, path: string) => { op: Operation; params: Record<string, string> } | undefined {
  const table = operations.map((op) => {
    const names: string[] = [];
    const source = op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    return { op, names, method: op.method.toUpperCase(), pattern: new RegExp(`^${source}$`) };
  }).sort((a, b) => a.names.length - b.names.length);
  return (method, path) => {
    for (const entry of table) {
      if (entry.method !== method) continue;
      const match = entry.pattern.exec(path);
      if (match) return { op: entry.op, params: Object.fromEntries(entry.names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)])) };
    }
    return undefined;
  };
}

export async function startLocalPsp(options: LocalPspOptions): Promise<LocalPsp> {
  const api = await validator();
  const matchOperation = operationMatcher(api.getOperations());
  const notificationSchema = compileNotificationSchema(api.definition);
  const ttl = options.tokenTtlSeconds ?? 3600;
  const pageSize = options.pageSize ?? 100;
  const validate = options.validate ?? true;
  const validTokens = new Set<string>();
  const pixes = new Map<string, PixState>();
  const held: ServerResponse[] = [];
  const sockets = new Set<Socket>();
  let mode: 'off' | 'status503' | 'destroy' = 'off';
  let silent = false;
  let delayMs = options.delayMs ?? 0;
  let webhook: { webhookUrl: string; criacao: string } | undefined;
  let nextLocId = 1;
  let refundRefusal: string | undefined;
  let port = 0;

  const psp: LocalPsp = {
    apiUrl: '',
    oauthUrl: '',
    cobs: new Map(),
    tokenRequests: 0,
    tlsRefusals: 0,
    requests: [],
    violations: [],
    issuedTokens: [],
    connections: 0,
    revokeTokens: () => validTokens.clear(),
    pay: async (txid, opts = {}) => {
      const cob = psp.cobs.get(txid);
      if (!cob) throw new Error(`no cob ${txid}`);
      const now = new Date();
      const pix: PixState = { endToEndId: newEndToEndId(now), txid, valor: opts.amountDecimal ?? String((cob.body.valor as Json).original), horario: now.toISOString(), chave: options.pixKey, devolucoes: [] };
      cob.status = 'CONCLUIDA';
      cob.pix.push(pix);
      pixes.set(pix.endToEndId, pix);
      if (opts.notify !== false) {
        const target = opts.deliverTo ?? options.notifyTo ?? (webhook ? `${webhook.webhookUrl}/pix` : undefined);
        if (target) await psp.postNotification({ pix: [pixJson(pix)] }, target);
      }
      return pix.endToEndId;
    },
    postNotification: async (body, to, forged = false) => {
      const checked = notificationSchema(body);
      if (!checked.valid && !forged) psp.violations.push(`notification: ${checked.errors}`);
      const target = to ?? options.notifyTo ?? (webhook ? `${webhook.webhookUrl}/pix` : undefined);
      if (!target) throw new Error('no webhook registered and no notifyTo');
      const res = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await res.arrayBuffer();
      return res.status;
    },
    failing: (m) => {
      mode = m;
    },
    silent: (on) => {
      silent = on;
      if (!on) for (const res of held.splice(0)) res.destroy();
    },
    delay: (ms) => {
      delayMs = ms;
    },
    refuseRefunds: (motivo) => {
      refundRefusal = motivo;
    },
    settleRefunds: () => {
      for (const pix of pixes.values()) for (const d of pix.devolucoes) settle(d);
    },
    close: async () => {
      for (const res of held.splice(0)) res.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  function settle(devolucao: Json): void {
    if (devolucao.status !== 'EM_PROCESSAMENTO') return;
    if (refundRefusal !== undefined) {
      devolucao.status = 'NAO_REALIZADO';
      devolucao.motivo = refundRefusal;
      return;
    }
    devolucao.status = 'DEVOLVIDO';
    (devolucao.horario as Json).liquidacao = new Date().toISOString();
  }

  function pixJson(pix: PixState): Json {
    return { endToEndId: pix.endToEndId, txid: pix.txid, valor: pix.valor, chave: pix.chave, horario: pix.horario, ...(pix.devolucoes.length ? { devolucoes: pix.devolucoes } : {}) };
  }

  function cobJson(cob: CobState): Json {
    return {
      ...cob.body,
      calendario: { criacao: cob.criacao, expiracao: (cob.body.calendario as Json | undefined)?.expiracao ?? 86400 },
      txid: cob.txid,
      revisao: cob.revisao,
      loc: { id: cob.locId, txid: cob.txid, location: cob.location, tipoCob: 'cob', criacao: cob.criacao },
      location: cob.location,
      status: cob.status,
      pixCopiaECola: cob.pixCopiaECola,
      ...(cob.pix.length ? { pix: cob.pix.map(pixJson) } : {}),
    };
  }

  /** The routes, on a request that matched the document and passed its validation. */
  function route(op: Operation, params: Record<string, string>, query: Record<string, string>, body: Json): { status: number; body?: unknown } {
    switch (op.operationId) {
      case 'PUT /cob/{txid}': {
        const txid = params.txid!;
        if (psp.cobs.has(txid)) return problem(400, 'CobOperacaoInvalida', 'Cobrança inválida.', `A cobrança ${txid} já existe.`);
        if (body.chave !== options.pixKey) return problem(400, 'CobOperacaoInvalida', 'Cobrança inválida.', 'O campo cob.chave corresponde a uma conta que não pertence a este usuário recebedor.');
        const original = String((body.valor as Json).original);
        if (decimalCents(original) <= 0) return problem(400, 'CobOperacaoInvalida', 'Cobrança inválida.', 'O campo cob.valor.original é zero.');
        const location = `localhost:${port}/qr/v2/${randomUUID()}`;
        const cob: CobState = {
          txid, status: 'ATIVA', revisao: 0, body, criacao: new Date().toISOString(), location, locId: nextLocId++,
          pixCopiaECola: buildDynamicBrCode({ locationUrl: location, amountCents: decimalCents(original), merchantName: 'Loja de Teste', merchantCity: 'Sao Paulo' }),
          pix: [],
        };
        psp.cobs.set(txid, cob);
        return { status: 201, body: cobJson(cob) };
      }
      case 'GET /cob/{txid}': {
        const cob = psp.cobs.get(params.txid!);
        return cob ? { status: 200, body: cobJson(cob) } : problem(404, 'CobNaoEncontrado', 'Cobrança não encontrada.');
      }
      case 'PATCH /cob/{txid}': {
        const cob = psp.cobs.get(params.txid!);
        if (!cob) return problem(404, 'CobNaoEncontrado', 'Cobrança não encontrada.');
        if (cob.status !== 'ATIVA') return problem(400, 'CobOperacaoInvalida', 'Cobrança inválida.', `A cobrança está ${cob.status}.`);
        if (body.status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR') cob.status = 'REMOVIDA_PELO_USUARIO_RECEBEDOR';
        cob.revisao++;
        return { status: 200, body: cobJson(cob) };
      }
      case 'GET /cob': {
        const [from, to] = [Date.parse(query.inicio!), Date.parse(query.fim!)];
        const cobs = [...psp.cobs.values()].filter((c) => Date.parse(c.criacao) >= from && Date.parse(c.criacao) <= to);
        return { status: 200, body: { parametros: { inicio: query.inicio, fim: query.fim, paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: cobs.length } }, cobs: cobs.map(cobJson) } };
      }
      case 'GET /pix/{e2eid}': {
        const pix = pixes.get(params.e2eid!);
        return pix ? { status: 200, body: pixJson(pix) } : problem(404, 'PixNaoEncontrado', 'Pix não encontrado.');
      }
      case 'GET /pix': {
        const [from, to] = [Date.parse(query.inicio!), Date.parse(query.fim!)];
        if (to < from) return problem(400, 'PixConsultaInvalida', 'Consulta inválida.', 'fim é anterior a inicio.');
        const page = Number(query['paginacao.paginaAtual'] ?? 0);
        const perPage = Number(query['paginacao.itensPorPagina'] ?? pageSize);
        const all = [...pixes.values()].filter((p) => Date.parse(p.horario) >= from && Date.parse(p.horario) <= to);
        const pages = Math.max(1, Math.ceil(all.length / perPage));
        return {
          status: 200,
          body: {
            parametros: { inicio: query.inicio, fim: query.fim, paginacao: { paginaAtual: page, itensPorPagina: perPage, quantidadeDePaginas: pages, quantidadeTotalDeItens: all.length } },
            pix: all.slice(page * perPage, (page + 1) * perPage).map(pixJson),
          },
        };
      }
      case 'PUT /pix/{e2eid}/devolucao/{id}': {
        const pix = pixes.get(params.e2eid!);
        if (!pix) return problem(404, 'PixNaoEncontrado', 'Pix não encontrado.');
        if (pix.devolucoes.some((d) => d.id === params.id)) return problem(400, 'PixDevolucaoInvalida', 'Devolução inválida.', 'O id já foi utilizado por outra devolução deste Pix.');
        const asked = decimalCents(String(body.valor));
        const done = pix.devolucoes.filter((d) => d.status !== 'NAO_REALIZADO').reduce((sum, d) => sum + decimalCents(String(d.valor)), 0);
        if (asked + done > decimalCents(pix.valor)) return problem(400, 'PixDevolucaoInvalida', 'Devolução inválida.', 'A devolução excederia o valor do Pix.');
        const devolucao: Json = { id: params.id, rtrId: `D${ISPB}${new Date().toISOString().replace(/[-:T]/g, '').slice(0, 12)}${randomAlnum(11)}`, valor: body.valor, horario: { solicitacao: new Date().toISOString() }, status: 'EM_PROCESSAMENTO' };
        pix.devolucoes.push(devolucao);
        return { status: 201, body: { ...devolucao, horario: { ...(devolucao.horario as Json) } } };
      }
      case 'GET /pix/{e2eid}/devolucao/{id}': {
        const devolucao = pixes.get(params.e2eid!)?.devolucoes.find((d) => d.id === params.id);
        if (!devolucao) return problem(404, 'PixDevolucaoNaoEncontrada', 'Devolução não encontrada.');
        settle(devolucao); // the next GET after the request finds it done
        return { status: 200, body: devolucao };
      }
      case 'PUT /webhook/{chave}': {
        if (params.chave !== options.pixKey) return problem(404, 'NaoEncontrado', 'Chave não encontrada.');
        webhook = { webhookUrl: String(body.webhookUrl), criacao: new Date().toISOString() };
        return { status: 200 };
      }
      case 'GET /webhook/{chave}': {
        if (!webhook || params.chave !== options.pixKey) return problem(404, 'NaoEncontrado', 'Webhook não encontrado.');
        return { status: 200, body: { webhookUrl: webhook.webhookUrl, cnpj: '12345678000195', criacao: webhook.criacao } };
      }
      default:
        return problem(404, 'NaoEncontrado', 'Rota não servida por este PSP local.');
    }
  }

  function send(res: ServerResponse, status: number, body?: unknown): void {
    if (body === undefined) {
      res.writeHead(status).end();
      return;
    }
    const isProblem = status >= 400 && typeof body === 'object' && body !== null && 'type' in body;
    res.writeHead(status, { 'content-type': isProblem ? 'application/problem+json' : 'application/json' }).end(JSON.stringify(body));
  }

  async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    psp.tokenRequests++;
    const form = new URLSearchParams(await readBody(req));
    if (delayMs > 0) await sleep(delayMs);
    const expected = `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64')}`;
    if (req.headers.authorization !== expected) {
      send(res, 401, { error: 'invalid_client' });
      return;
    }
    if (form.get('grant_type') !== 'client_credentials' || !String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
      send(res, 400, { error: 'unsupported_grant_type' });
      return;
    }
    const value = randomBytes(24).toString('base64url');
    validTokens.add(value);
    psp.issuedTokens.push(value);
    send(res, 200, { access_token: value, token_type: 'Bearer', expires_in: ttl, scope: 'cob.write cob.read pix.write pix.read webhook.write webhook.read' });
  }

  async function apiCall(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const text = await readBody(req);
    if (silent) {
      held.push(res);
      return;
    }
    if (delayMs > 0) await sleep(delayMs);
    if (mode === 'destroy') {
      req.socket.destroy();
      return;
    }
    if (mode === 'status503') {
      send(res, 503, problem(503, 'ServicoIndisponivel', 'Serviço indisponível.').body);
      return;
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !validTokens.has(bearer)) {
      send(res, 401, { type: `${ERROR_TYPE}AcessoNegado`, title: 'Não autorizado.', status: 401 });
      return;
    }
    const path = url.pathname.slice(API_ROOT.length) || '/';
    let body: unknown = undefined;
    if (text.length > 0) {
      try {
        body = JSON.parse(text);
      } catch {
        psp.violations.push(`${req.method} ${path}: request body is not JSON`);
        send(res, 400, problem(400, 'RequisicaoInvalida', 'Requisição inválida.').body);
        return;
      }
    }
    psp.requests.push({ method: req.method ?? '', path: url.pathname.slice(API_ROOT.length) + url.search, body });
    const request = { method: req.method ?? 'GET', path, query: Object.fromEntries(url.searchParams), headers: req.headers as Record<string, string>, body };
    const matched = matchOperation(request.method, path);
    if (!matched) {
      psp.violations.push(`${req.method} ${path}: no such operation in the document`);
      send(res, 404, problem(404, 'NaoEncontrado', 'Rota inexistente.').body);
      return;
    }
    const { op, params } = matched;
    const checked = validate ? api.validateRequest(request, op) : { valid: true as const, errors: undefined };
    if (!checked.valid) {
      const detail = (checked.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`).join('; ');
      psp.violations.push(`request ${op.operationId}: ${detail}`);
      send(res, 400, { ...problem(400, 'RequisicaoInvalida', 'Requisição inválida.', detail).body, violacoes: (checked.errors ?? []).map((e) => ({ razao: e.message ?? 'inválido', propriedade: e.instancePath || 'body' })) });
      return;
    }
    const answer = route(op, params, request.query, (body ?? {}) as Json);
    if (validate && answer.status !== 401) {
      const out = api.validateResponse(answer.body, op, answer.status);
      if (!out.valid) psp.violations.push(`response ${answer.status} to ${op.operationId}: ${(out.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`).join('; ')}`);
    }
    send(res, answer.status, answer.body);
  }

  const server = https.createServer({ key: options.ca.server.key, cert: options.ca.server.cert, ca: options.ca.ca, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://localhost');
    const handled = url.pathname === '/oauth/token' && req.method === 'POST' ? token(req, res) : url.pathname.startsWith(`${API_ROOT}/`) ? apiCall(req, res, url) : Promise.resolve(send(res, 404, problem(404, 'NaoEncontrado', 'Rota inexistente.').body));
    handled.catch((error: unknown) => {
      psp.violations.push(`stand-in failure: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) send(res, 500, problem(500, 'ErroInternoDoServidor', 'Erro interno.').body);
    });
  });
  server.on('secureConnection', (socket: Socket) => {
    psp.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('tlsClientError', () => {
    psp.tlsRefusals++;
  });
  if (options.keepAliveMs !== undefined) server.keepAliveTimeout = options.keepAliveMs;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  psp.apiUrl = `https://127.0.0.1:${port}${API_ROOT}`;
  psp.oauthUrl = `https://127.0.0.1:${port}/oauth/token`;
  return psp;
}
