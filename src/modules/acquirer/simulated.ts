/**
 * The sandbox acquirer. It answers at once and keeps its record in its own
 * table, like a real acquirer's ledger. An amount of 50200 centavos makes it
 * silent (PROVIDER_ERROR), so sellers can test that path.
 */
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { AcquirerUnavailable, type Acquirer, type ChargeRecord, type ChargeRequest } from './acquirer.js';

export const SILENT_AMOUNT_CENTS = 50_200;

export class SimulatedAcquirer implements Acquirer {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async register(request: ChargeRequest): Promise<ChargeRecord> {
    if (request.method !== 'CREDIT_CARD' && request.amountCents === SILENT_AMOUNT_CENTS) {
      throw new AcquirerUnavailable('The simulated acquirer is silent for an amount of 50200');
    }
    const existing = await this.findCharge(request.reference);
    if (existing) return existing;
    const record: ChargeRecord = { reference: request.reference, providerId: `sim_${request.reference}`, approved: true };
    await this.db
      .insertInto('acquirer_charges')
      .values({
        reference: request.reference,
        method: request.method,
        amount_cents: request.amountCents,
        outcome: JSON.stringify(record),
        created_at: this.clock.now(),
      })
      .onConflict((oc) => oc.column('reference').doNothing())
      .execute();
    return record;
  }

  async findCharge(reference: string): Promise<ChargeRecord | undefined> {
    const row = await this.db.selectFrom('acquirer_charges').select('outcome').where('reference', '=', reference).executeTakeFirst();
    return row ? (row.outcome as ChargeRecord) : undefined;
  }
}
