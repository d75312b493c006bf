/** Shared by the SDK's tests (test/sdk/). */
import assert from 'node:assert/strict';
import { WebhookVerificationError } from '../../packages/sdk/src/index.js';

/** The reason constructEvent refused a delivery with (fails the test if it was accepted). */
export async function refusal(verifying: Promise<unknown>): Promise<string> {
  const err = await verifying.then(
    () => assert.fail('the delivery was accepted'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof WebhookVerificationError, String(err));
  return err.reason;
}
