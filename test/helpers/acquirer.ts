/** An acquirer stand-in for tests that count charges or reproduce a process dying at the acquirer. */
import type { Acquirer, CardAuthorization, ChargeRecord, ChargeRequest } from '../../src/modules/acquirer/index.js';

/**
 * The simulated acquirer, except that one call can be made to never answer,
 * as if the process running it died there: before the acquirer recorded the
 * charge, or after. `calls` counts the charges asked for.
 */
export class DyingAcquirer implements Acquirer {
  calls = 0;
  private dying: { after: boolean; reached: () => void } | undefined;

  constructor(private readonly inner: Acquirer) {}

  /** The next charge never answers; resolves once that call is reached (and, with 'after-charge', recorded). */
  dieOnNextCharge(when: 'before-charge' | 'after-charge'): Promise<void> {
    return new Promise((reached) => {
      this.dying = { after: when === 'after-charge', reached };
    });
  }

  private async charge(run: () => Promise<ChargeRecord>): Promise<ChargeRecord> {
    this.calls++;
    const dying = this.dying;
    if (!dying) return run();
    this.dying = undefined;
    if (dying.after) await run();
    dying.reached();
    return new Promise<ChargeRecord>(() => {});
  }

  register(request: ChargeRequest): Promise<ChargeRecord> {
    return this.charge(() => this.inner.register(request));
  }

  authorizeCard(request: CardAuthorization): Promise<ChargeRecord> {
    return this.charge(() => this.inner.authorizeCard(request));
  }

  findCharge(reference: string): Promise<ChargeRecord | undefined> {
    return this.inner.findCharge(reference);
  }
}
