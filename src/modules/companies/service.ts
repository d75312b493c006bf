/**
 * Operator actions on companies (sellers), their API keys, and recipient
 * accounts (who may receive split slices). Called by the `svc` CLI; the API
 * only reads keys (auth) and approved accounts (split validation).
 *
 * Invariants: one company per CPF/CNPJ; a company is also an APPROVED
 * account for its own document (created in the same transaction), so its
 * own receivables have a recipient; a key is stored only as its SHA-256 and
 * a revoked key stays revoked. No row locks: these are operator commands,
 * and the unique constraints on documents and ids settle the races.
 *
 * Mistakes of the operator are returned as values (VALIDATION_ERROR,
 * NOT_FOUND) whose message is what the CLI prints.
 */
import type { Environment } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { FeePlan } from '../../db/types.js';
import type { Clock } from '../../lib/clock.js';
import { DomainError, isDomainError, type Outcome } from '../../lib/domain-error.js';
import { ERRORS } from '../../lib/i18n/messages/errors.js';
import type { IdGenerator } from '../../lib/ids.js';
import { DEFAULT_FEE_PLAN } from '../fees/index.js';
import { generateKey, SCOPES, type KeyLookup, type Scope } from './api-keys.js';
import * as repo from './repo.js';
import { checkDocument, checkFeeChanges, checkGrantable, checkName, checkScopes } from './rules.js';
import { forgetSellerProfile } from './seller-profiles.js';

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
  /** Given in the dashboard; null for keys issued by the operator. */
  name: string | null;
  /** Written at most once a minute (LAST_USE_EVERY_MS): a key in use shows a time at most that old. */
  lastUsedAt: string | null;
  /** The dashboard member (user id) who made it; null for keys issued by the operator. */
  createdBy: string | null;
}

/** A dashboard member making a key: it is theirs, and holds at most what their role may grant. */
export interface KeyCreator {
  userId: string;
  grantable: readonly Scope[];
}

/** How stale a key's last use may be before authentication writes it again: one UPDATE per key per minute at most. */
const LAST_USE_EVERY_MS = 60_000;

export type AccountRecord = repo.AccountSummary;

export class CompanyService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly newId: IdGenerator,
    private readonly env: Environment,
  ) {}

  async createCompany(name: string, document: string): Promise<Outcome<CompanyRecord>> {
    const invalid = checkName(name) ?? checkDocument(document);
    if (invalid) return invalid;
    const exists = await repo.companyIdByDocument(this.db, document);
    if (exists) return new DomainError('VALIDATION_ERROR', ERRORS.VALIDATION_ERROR.companyExists({ document, id: exists.id }));
    const now = this.clock.now();
    const id = this.newId('cmp');
    await this.db.transaction().execute(async (trx) => {
      await repo.insertCompany(trx, { id, name: name.trim(), document, feePlan: DEFAULT_FEE_PLAN, at: now });
      // The seller is also an approved account: its own receivables are paid to its document.
      await repo.insertAccount(trx, { document, name: name.trim(), status: 'APPROVED', at: now });
    });
    return { id, name: name.trim(), document, feePlan: DEFAULT_FEE_PLAN, createdAt: now.toISOString() };
  }

  /** The company with this CPF/CNPJ, if any. */
  async findByDocument(document: string): Promise<{ id: string; name: string } | undefined> {
    return repo.companyIdByDocument(this.db, document);
  }

  /** Whether any company exists (a deployment with none gets the sandbox demo). */
  async any(): Promise<boolean> {
    return repo.anyCompany(this.db);
  }

  async getCompany(id: string): Promise<Outcome<CompanyRecord>> {
    const row = await repo.findCompany(this.db, id);
    if (!row) return new DomainError('NOT_FOUND', ERRORS.NOT_FOUND.company({ id }));
    return { id: row.id, name: row.name, document: row.document, feePlan: row.fee_plan, createdAt: row.created_at.toISOString() };
  }

  async setFees(id: string, changes: Partial<FeePlan>): Promise<Outcome<CompanyRecord>> {
    const company = await this.getCompany(id);
    if (isDomainError(company)) return company;
    const invalid = checkFeeChanges(changes);
    if (invalid) return invalid;
    const feePlan = { ...company.feePlan, ...changes };
    await repo.updateFeePlan(this.db, id, feePlan);
    forgetSellerProfile(id);
    return { ...company, feePlan };
  }

  /**
   * Issues a key; the returned token is shown once and never stored. `by`:
   * made in the dashboard (the operator's has none), with at most the scopes
   * its creator may grant; none listed: all of those (every scope for an admin).
   */
  async issueKey(companyId: string, scopes?: string[], name?: string, by?: KeyCreator): Promise<Outcome<KeyRecord & { key: string }>> {
    const company = await this.getCompany(companyId);
    if (isDomainError(company)) return company;
    const asked = scopes && scopes.length > 0 ? scopes : undefined;
    const invalid = checkScopes(asked ?? []) ?? (by && asked ? checkGrantable(asked, by.grantable) : undefined);
    if (invalid) return invalid;
    const { token, hash, hint } = generateKey(this.env);
    const now = this.clock.now();
    const id = this.newId('key');
    const chosen = asked ?? (by && by.grantable.length < SCOPES.length ? [...by.grantable] : null);
    await repo.insertApiKey(this.db, {
      id,
      company_id: companyId,
      environment: this.env,
      token_hash: hash,
      hint,
      scopes: JSON.stringify(chosen),
      created_at: now,
      revoked_at: null,
      name: name?.trim() || null,
      created_by: by?.userId ?? null,
    });
    const record = {
      id,
      companyId,
      environment: this.env,
      hint,
      scopes: chosen,
      createdAt: now.toISOString(),
      revokedAt: null,
      name: name?.trim() || null,
      lastUsedAt: null,
      createdBy: by?.userId ?? null,
    };
    return { ...record, key: token };
  }

  /** `companyId`: only a key of that company (the dashboard's); the operator revokes any. */
  async revokeKey(keyId: string, companyId?: string): Promise<Outcome<KeyRecord>> {
    const row = await repo.revokeApiKey(this.db, keyId, this.clock.now(), companyId);
    if (!row) return new DomainError('NOT_FOUND', ERRORS.NOT_FOUND.activeKey({ id: keyId }));
    return keyRecord(row);
  }

  /** The company's active keys a member made (what their removal revokes or keeps), in the caller's transaction when `ex` is given. */
  async activeKeysBy(companyId: string, userId: string, ex: Db = this.db): Promise<KeyRecord[]> {
    return (await repo.activeKeysBy(ex, companyId, userId)).map(keyRecord);
  }

  /** Revokes the company's active keys a member made; answers them. */
  async revokeKeysBy(companyId: string, userId: string, ex: Db = this.db): Promise<KeyRecord[]> {
    return (await repo.revokeKeysBy(ex, companyId, userId, this.clock.now())).map(keyRecord);
  }

  async listKeys(companyId: string): Promise<Outcome<KeyRecord[]>> {
    const company = await this.getCompany(companyId);
    if (isDomainError(company)) return company;
    return (await repo.listApiKeys(this.db, companyId)).map(keyRecord);
  }

  async createAccount(document: string, name: string): Promise<Outcome<AccountRecord>> {
    const invalid = checkDocument(document) ?? checkName(name);
    if (invalid) return invalid;
    const inserted = await repo.insertAccount(this.db, { document, name: name.trim(), status: 'PENDING_APPROVAL', at: this.clock.now() });
    if (!inserted) return new DomainError('VALIDATION_ERROR', ERRORS.VALIDATION_ERROR.accountExists({ document }));
    return inserted;
  }

  async approveAccount(document: string): Promise<Outcome<AccountRecord>> {
    const row = await repo.approveAccount(this.db, document, this.clock.now());
    if (!row) return new DomainError('NOT_FOUND', ERRORS.NOT_FOUND.account({ document }));
    return row;
  }

  /**
   * Records that a live key was looked up by authentication, which caches
   * what it finds (http/auth.ts): the row is written only when its last use
   * is older than LAST_USE_EVERY_MS, so a busy key costs one UPDATE a minute.
   */
  private async noteUse(row: KeyRow): Promise<void> {
    if (row.revoked_at || row.environment !== this.env) return;
    const now = this.clock.now();
    if (row.last_used_at && now.getTime() - row.last_used_at.getTime() < LAST_USE_EVERY_MS) return;
    await repo.noteKeyUse(this.db, row.id, now, new Date(now.getTime() - LAST_USE_EVERY_MS));
  }

  /** The lookup used by API authentication. */
  readonly keyLookup: KeyLookup = async (hash) => {
    const row = await repo.apiKeyByHash(this.db, hash);
    if (!row) return undefined;
    await this.noteUse(row);
    return {
      companyId: row.company_id,
      keyId: row.id,
      scopes: row.scopes as Scope[] | null,
      environment: row.environment,
      revoked: row.revoked_at !== null,
    };
  };
}

type KeyRow = {
  id: string;
  company_id: string;
  environment: string;
  hint: string;
  scopes: string[] | null;
  created_at: Date;
  revoked_at: Date | null;
  name: string | null;
  last_used_at: Date | null;
  created_by: string | null;
};

function keyRecord(row: KeyRow): KeyRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    environment: row.environment,
    hint: row.hint,
    scopes: row.scopes,
    createdAt: row.created_at.toISOString(),
    revokedAt: row.revoked_at?.toISOString() ?? null,
    name: row.name,
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    createdBy: row.created_by,
  };
}
