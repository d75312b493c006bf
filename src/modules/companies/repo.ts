/** All SQL on companies, api_keys and accounts. The executor is always the first parameter. */
import type { Db } from '../../db/database.js';
import type { FeePlan } from '../../db/types.js';

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
