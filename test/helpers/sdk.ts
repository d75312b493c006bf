/** Shared by the SDK's tests (test/sdk/) and by the tests of the types generated from the OpenAPI document. */
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { WebhookVerificationError } from '../../packages/sdk/src/index.js';
import { REPO_ROOT } from './server.js';

/** The reason constructEvent refused a delivery with (fails the test if it was accepted). */
export async function refusal(verifying: Promise<unknown>): Promise<string> {
  const err = await verifying.then(
    () => assert.fail('the delivery was accepted'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof WebhookVerificationError, String(err));
  return err.reason;
}

/**
 * The TypeScript types the SDK's generator (packages/sdk/scripts/openapi-types.mjs)
 * makes of an OpenAPI document. Loaded from the repository at run time: the
 * compiled tests in .test-build/ have no copy of the script.
 */
export async function typesFromDocument(document: unknown): Promise<string> {
  const generator = (await import(pathToFileURL(path.join(REPO_ROOT, 'packages/sdk/scripts/openapi-types.mjs')).href)) as {
    typesFromDocument(document: unknown): Promise<string>;
  };
  return generator.typesFromDocument(document);
}
