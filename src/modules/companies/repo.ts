/** All SQL on companies, api_keys and accounts. The executor is always the first parameter. */
import type { Db } from '../../db/database.js';
import type { Insertable, Selectable } from 'kysely';
import type { ApiKeysTable, CompaniesTable, FeePlan } from '../../db/types.js';

type CompanyRow = Selectable<CompaniesTable>;
type ApiKeyRow = Selectable<ApiKeysTable>;
type NewApiKey = Insertable<ApiKeysTable>;

/** What other modules need of a seller: its name (views, the Pix code), document (its own receivables), fee plan (pricing a sale). */
export interface SellerProfile {
  name: string;
  document: string;
  feePlan: FeePlan;
}

export async function sellerProfile(ex: Db, companyId: string): Promise<SellerProfile> {
  const row = await ex.selectFrom('companies').select(['name', 'document', 'fee_plan']).where('id', '=', companyId).executeTakeFirstOrThrow();
  return { name: row.name, document: row.document, feePlan: row.fee_plan };
}

/** Locks the company row: serialises per-company limits (at most N webhook registrations). */
export async function lockCompany(ex: Db, companyId: string): Promise<void> {
  await ex.selectFrom('companies').select('id').where('id', '=', companyId).forUpdate().executeTakeFirstOrThrow();
}

export interface AccountSummary {
  document: string;
  name: string;
  status: string;
}

export async function companyIdByDocument(ex: Db, document: string): Promise<{ id: string; name: string } | undefined> {
  return ex.selectFrom('companies').select(['id', 'name']).where('document', '=', document).executeTakeFirst();
}

export async function anyCompany(ex: Db): Promise<boolean> {
  return (await ex.selectFrom('companies').select('id').limit(1).executeTakeFirst()) !== undefined;
}

export async function findCompany(ex: Db, id: string): Promise<CompanyRow | undefined> {
  return ex.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertCompany(ex: Db, row: { id: string; name: string; document: string; feePlan: FeePlan; at: Date }): Promise<void> {
  await ex.insertInto('companies').values({ id: row.id, name: row.name, document: row.document, fee_plan: JSON.stringify(row.feePlan), created_at: row.at }).execute();
}

export async function updateFeePlan(ex: Db, id: string, feePlan: FeePlan): Promise<void> {
  await ex.updateTable('companies').set({ fee_plan: JSON.stringify(feePlan) }).where('id', '=', id).execute();
}

/** Inserts an account unless one with the document exists; undefined when it did. */
export async function insertAccount(
  ex: Db,
  row: { document: string; name: string; status: 'PENDING_APPROVAL' | 'APPROVED'; at: Date },
): Promise<AccountSummary | undefined> {
  return ex
    .insertInto('accounts')
    .values({ document: row.document, name: row.name, status: row.status, created_at: row.at, approved_at: row.status === 'APPROVED' ? row.at : null })
    .onConflict((oc) => oc.column('document').doNothing())
    .returning(['document', 'name', 'status'])
    .executeTakeFirst();
}

export async function approveAccount(ex: Db, document: string, at: Date): Promise<AccountSummary | undefined> {
  return ex
    .updateTable('accounts')
    .set({ status: 'APPROVED', approved_at: at })
    .where('document', '=', document)
    .returning(['document', 'name', 'status'])
    .executeTakeFirst();
}

export async function insertApiKey(ex: Db, row: NewApiKey): Promise<void> {
  await ex.insertInto('api_keys').values(row).execute();
}

/** Revokes an active key; undefined when there is no active key with that id. */
export async function revokeApiKey(ex: Db, keyId: string, at: Date, companyId?: string): Promise<ApiKeyRow | undefined> {
  let query = ex.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', keyId).where('revoked_at', 'is', null);
  if (companyId) query = query.where('company_id', '=', companyId);
  return query.returningAll().executeTakeFirst();
}

/** Sets a key's last use unless another process wrote one since `staleBefore` (one write per minute per key). */
export async function noteKeyUse(ex: Db, keyId: string, at: Date, staleBefore: Date): Promise<void> {
  await ex
    .updateTable('api_keys')
    .set({ last_used_at: at })
    .where('id', '=', keyId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
    .execute();
}

/** A company's active keys made by a dashboard member. */
export async function activeKeysBy(ex: Db, companyId: string, userId: string): Promise<ApiKeyRow[]> {
  return ex.selectFrom('api_keys').selectAll().where('company_id', '=', companyId).where('created_by', '=', userId).where('revoked_at', 'is', null).orderBy('id').execute();
}

/** Revokes a company's active keys made by a dashboard member; answers them. */
export async function revokeKeysBy(ex: Db, companyId: string, userId: string, at: Date): Promise<ApiKeyRow[]> {
  const rows = await ex
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('company_id', '=', companyId)
    .where('created_by', '=', userId)
    .where('revoked_at', 'is', null)
    .returningAll()
    .execute();
  return rows.sort((a, b) => a.id.localeCompare(b.id));
}

export async function listApiKeys(ex: Db, companyId: string): Promise<ApiKeyRow[]> {
  return ex.selectFrom('api_keys').selectAll().where('company_id', '=', companyId).orderBy('id').execute();
}

export async function apiKeyByHash(ex: Db, hash: string): Promise<ApiKeyRow | undefined> {
  return ex.selectFrom('api_keys').selectAll().where('token_hash', '=', hash).executeTakeFirst();
}

/** Which of these documents are APPROVED accounts (split recipients must be). */
export async function approvedDocuments(ex: Db, documents: string[]): Promise<Set<string>> {
  if (documents.length === 0) return new Set();
  const rows = await ex.selectFrom('accounts').select('document').where('document', 'in', documents).where('status', '=', 'APPROVED').execute();
  return new Set(rows.map((r) => r.document));
}
