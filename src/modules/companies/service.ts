/**
 * Operator actions on companies (sellers), their API keys, and recipient
 * accounts (who may receive split slices). Called by the `svc` CLI; the API
 * only reads keys (auth) and approved accounts (split validation).
 */
import type { Environment } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { FeePlan } from '../../db/types.js';
import type { KeyLookup } from '../../http/auth.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { isValidTaxId } from '../../lib/tax-id.js';
import { DEFAULT_FEE_PLAN } from '../fees/index.js';
import { generateKey, SCOPES, type Scope } from './api-keys.js';

export class OperatorError extends Error {}

export interface CompanyRecord {
  id: string;
  name: string;
  document: string;
  feePlan: FeePlan;
  createdAt: string;
}

export interface KeyRecord {
  id: string;
  companyId: string;
  environment: string;
  hint: string;
  scopes: string[] | null;
  createdAt: string;
  revokedAt: string | null;
}

function checkDocument(document: string): void {
  if (!isValidTaxId(document)) throw new OperatorError(`document ${document} is not a valid CPF (11 digits) or CNPJ (14 digits)`);
}

export class CompanyService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly newId: IdGenerator,
    private readonly env: Environment,
  ) {}

  async createCompany(name: string, document: string): Promise<CompanyRecord> {
    if (!name.trim()) throw new OperatorError('name must not be empty');
    checkDocument(document);
    const exists = await this.db.selectFrom('companies').select('id').where('document', '=', document).executeTakeFirst();
    if (exists) throw new OperatorError(`a company with document ${document} already exists (${exists.id})`);
    const now = this.clock.now();
    const id = this.newId('cmp');
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('companies').values({ id, name: name.trim(), document, fee_plan: JSON.stringify(DEFAULT_FEE_PLAN), created_at: now }).execute();
      // The seller is also an approved account: its own receivables are paid to its document.
      await trx
        .insertInto('accounts')
        .values({ document, name: name.trim(), status: 'APPROVED', created_at: now, approved_at: now })
        .onConflict((oc) => oc.column('document').doNothing())
        .execute();
    });
    return { id, name: name.trim(), document, feePlan: DEFAULT_FEE_PLAN, createdAt: now.toISOString() };
  }

  /** The company with this CPF/CNPJ, if any. */
  async findByDocument(document: string): Promise<{ id: string; name: string } | undefined> {
    return this.db.selectFrom('companies').select(['id', 'name']).where('document', '=', document).executeTakeFirst();
  }

  /** Whether any company exists (a deployment with none gets the sandbox demo). */
  async any(): Promise<boolean> {
    return (await this.db.selectFrom('companies').select('id').limit(1).executeTakeFirst()) !== undefined;
  }

  async getCompany(id: string): Promise<CompanyRecord> {
    const row = await this.db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new OperatorError(`no company ${id}`);
    return { id: row.id, name: row.name, document: row.document, feePlan: row.fee_plan, createdAt: row.created_at.toISOString() };
  }

  async setFees(id: string, changes: Partial<FeePlan>): Promise<CompanyRecord> {
    const company = await this.getCompany(id);
    for (const [key, value] of Object.entries(changes)) {
      if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > 2000 * (key === 'boletoFlatCents' ? 10 : 1)) {
        throw new OperatorError(`${key} must be a whole number between 0 and ${key === 'boletoFlatCents' ? '20000 centavos' : '2000 basis points'}`);
      }
    }
    const feePlan = { ...company.feePlan, ...changes };
    await this.db.updateTable('companies').set({ fee_plan: JSON.stringify(feePlan) }).where('id', '=', id).execute();
    return { ...company, feePlan };
  }

  /** Issues a key; the returned token is shown once and never stored. */
  async issueKey(companyId: string, scopes?: string[]): Promise<KeyRecord & { key: string }> {
    await this.getCompany(companyId);
    const unknown = (scopes ?? []).filter((s) => !(SCOPES as readonly string[]).includes(s));
    if (unknown.length > 0) throw new OperatorError(`unknown scope ${unknown.join(', ')}; known: ${SCOPES.join(', ')}`);
    const { token, hash, hint } = generateKey(this.env);
    const now = this.clock.now();
    const id = this.newId('key');
    const chosen = scopes && scopes.length > 0 ? scopes : null;
    await this.db
      .insertInto('api_keys')
      .values({ id, company_id: companyId, environment: this.env, token_hash: hash, hint, scopes: JSON.stringify(chosen), created_at: now, revoked_at: null })
      .execute();
    return { id, companyId, environment: this.env, hint, scopes: chosen, createdAt: now.toISOString(), revokedAt: null, key: token };
  }

  async revokeKey(keyId: string): Promise<KeyRecord> {
    const row = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: this.clock.now() })
      .where('id', '=', keyId)
      .where('revoked_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new OperatorError(`no active key ${keyId}`);
    return keyRecord(row);
  }

  async listKeys(companyId: string): Promise<KeyRecord[]> {
    await this.getCompany(companyId);
    const rows = await this.db.selectFrom('api_keys').selectAll().where('company_id', '=', companyId).orderBy('id').execute();
    return rows.map(keyRecord);
  }

  async createAccount(document: string, name: string): Promise<{ document: string; name: string; status: string }> {
    checkDocument(document);
    if (!name.trim()) throw new OperatorError('name must not be empty');
    const inserted = await this.db
      .insertInto('accounts')
      .values({ document, name: name.trim(), status: 'PENDING_APPROVAL', created_at: this.clock.now(), approved_at: null })
      .onConflict((oc) => oc.column('document').doNothing())
      .returning(['document', 'name', 'status'])
      .executeTakeFirst();
    if (!inserted) throw new OperatorError(`an account with document ${document} already exists`);
    return inserted;
  }

  async approveAccount(document: string): Promise<{ document: string; name: string; status: string }> {
    const row = await this.db
      .updateTable('accounts')
      .set({ status: 'APPROVED', approved_at: this.clock.now() })
      .where('document', '=', document)
      .returning(['document', 'name', 'status'])
      .executeTakeFirst();
    if (!row) throw new OperatorError(`no account with document ${document}; create it first`);
    return row;
  }

  /** The lookup used by API authentication. */
  readonly keyLookup: KeyLookup = async (hash) => {
    const row = await this.db.selectFrom('api_keys').selectAll().where('token_hash', '=', hash).executeTakeFirst();
    if (!row) return undefined;
    return {
      companyId: row.company_id,
      keyId: row.id,
      scopes: row.scopes as Scope[] | null,
      environment: row.environment,
      revoked: row.revoked_at !== null,
    };
  };
}

function keyRecord(row: { id: string; company_id: string; environment: string; hint: string; scopes: string[] | null; created_at: Date; revoked_at: Date | null }): KeyRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    environment: row.environment,
    hint: row.hint,
    scopes: row.scopes,
    createdAt: row.created_at.toISOString(),
    revokedAt: row.revoked_at?.toISOString() ?? null,
  };
}
