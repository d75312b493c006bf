/**
 * Where browser tests save screenshots for a person to look at after the run:
 * a folder in the temporary folder the run was started with ($TMPDIR, /tmp
 * without it), not the run's own in-memory one, which scripts/test.mjs removes
 * at the end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The screenshots folder `name`, created if it is missing. */
export function screenshotsFolder(name: string): string {
  const folder = path.join(process.env.SVC_TEST_SCREENSHOTS_TMPDIR ?? os.tmpdir(), name);
  fs.mkdirSync(folder, { recursive: true });
  return folder;
}
