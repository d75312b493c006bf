/** A provider stand-in for tests that count charges or reproduce a process dying at the acquirer. */
import type { CardAcquirer, CardAuthorization, ChargeRecord, ChargeRequest, RefundRecord, RefundRequest } from '../../src/modules/providers/index.js';

/**
 * Another provider (the simulated one), except that one call can be made to never answer,
 * as if the process running it died there: before the acquirer recorded the
 * charge, or after; or after a refund was done. `calls` counts the charges asked for.
 */
export class DyingProvider implements CardAcquirer {
  readonly name: string;
  calls = 0;
  private dying: { after: boolean; reached: () => void } | undefined;
  private held: { reached: () => void; released: Promise<void> } | undefined;
  private dyingRefund: (() => void) | undefined;

  constructor(private readonly inner: CardAcquirer) {
    this.name = inner.name;
  }

  /** The next charge never answers; resolves once that call is reached (and, with 'after-charge', recorded). */
  dieOnNextCharge(when: 'before-charge' | 'after-charge'): Promise<void> {
    return new Promise((reached) => {
      this.dying = { after: when === 'after-charge', reached };
    });
  }

  /**
   * The next charge waits (a paused vault, a slow network) until `release()`,
   * then goes through; `reached` resolves once the call is waiting.
   */
  holdNextCharge(): { reached: Promise<void>; release: () => void } {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const reached = new Promise<void>((resolve) => (this.held = { reached: resolve, released }));
    return { reached, release };
  }

  private async charge(run: () => Promise<ChargeRecord>): Promise<ChargeRecord> {
    this.calls++;
    const held = this.held;
    if (held) {
      this.held = undefined;
      held.reached();
      await held.released;
    }
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

  reverse(reference: string): Promise<ChargeRecord | undefined> {
    return this.inner.reverse(reference);
  }

  cancel = (reference: string) => this.inner.cancel(reference);
  paymentsOf = (reference: string) => this.inner.paymentsOf(reference);
  paymentsBetween = (from: Date, to: Date) => this.inner.paymentsBetween(from, to);
  notificationClaims = (body: unknown) => this.inner.notificationClaims(body);
  verifyPayment = (paymentId: string) => this.inner.verifyPayment(paymentId);
  /** The next refund reaches the provider and is done there, but never answers: the process died before recording it. */
  dieOnNextRefund(): Promise<void> {
    return new Promise((reached) => (this.dyingRefund = reached));
  }

  async refund(request: RefundRequest): Promise<RefundRecord> {
    const dying = this.dyingRefund;
    if (!dying) return this.inner.refund(request);
    this.dyingRefund = undefined;
    await this.inner.refund(request);
    dying();
    return new Promise<RefundRecord>(() => {});
  }

  findRefund = (request: RefundRequest) => this.inner.findRefund(request);
  check = () => this.inner.check();
}
