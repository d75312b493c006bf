/**
 * Where browser tests save screenshots for a person to look at after the run:
 * the temporary folder the run was started with ($TMPDIR, /tmp without it),
 * not the run's own in-memory one, which scripts/test.mjs removes at the end.
 */
import os from 'node:os';
import path from 'node:path';

export const screenshotsFolder = (name: string): string => path.join(process.env.SVC_TEST_SCREENSHOTS_TMPDIR ?? os.tmpdir(), name);
