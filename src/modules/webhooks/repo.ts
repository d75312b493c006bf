/** Webhook, delivery and attempt queries. The executor is always the first parameter. */
import type { Kysely } from 'kysely';
import type { Database, WebhookRow } from '../../db/types.js';

type Ex = Kysely<Database>;

export async function findWebhook(ex: Ex, companyId: string, id: string): Promise<WebhookRow | undefined> {
  return ex.selectFrom('webhooks').selectAll().where('company_id', '=', companyId).where('id', '=', id).where('active', '=', true).executeTakeFirst();
}

export async function activeWebhooks(ex: Ex, companyId: string): Promise<WebhookRow[]> {
  return ex.selectFrom('webhooks').selectAll().where('company_id', '=', companyId).where('active', '=', true).orderBy('id').execute();
}

/** Deactivates a registration and cancels its pending deliveries; false when there was none. */
export async function deactivate(ex: Ex, companyId: string, id: string, at: Date): Promise<boolean> {
  const row = await ex
    .updateTable('webhooks')
    .set({ active: false, deleted_at: at })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('active', '=', true)
    .returning('id')
    .executeTakeFirst();
  if (!row) return false;
  await ex.updateTable('webhook_deliveries').set({ state: 'CANCELED', updated_at: at }).where('webhook_id', '=', id).where('state', '=', 'PENDING').execute();
  return true;
}
