/**
 * DATA_DIR is its owner's alone: it holds the embedded database (whose
 * write-ahead log keeps buyers' CPF and e-mail in clear), the keys generated
 * outside production, the sandbox key and the operator socket.
 *
 * The folder is created 0700. PGlite writes through Node's fs with the
 * process's umask all its life (new WAL segments, new relations, its own
 * 0644 defaults), not only while it opens, so a umask set around opening it
 * would miss most files and fixing modes after would leave each new file
 * readable until the next start. The process therefore runs with umask 077
 * from here on, as PostgreSQL's own postmaster does: every file it makes is
 * born 0600, every folder 0700. A folder made before that (an earlier
 * version, or by hand) is tightened at start, with the database's files in
 * it, and the caller says so.
 */
import fs from 'node:fs';
import path from 'node:path';
import { StartError } from './start-error.js';

const OWNER_ONLY = 0o700;
const GROUP_AND_OTHER = 0o077;
const STICKY = 0o1000;

/** What a start found open to other users and closed. */
interface Tightened {
  /** The folder's permission bits before (e.g. 0o755). */
  folderMode: number;
  /** Entries of the embedded database's folder whose group or other bits were cleared. */
  files: number;
}

/**
 * Sets the process's umask to 077, creates `dataDir` 0700 (with any missing
 * parent) or tightens it and the embedded database in it; answers what was
 * tightened, if anything.
 */
export function ownerOnlyDataDir(dataDir: string): Tightened | undefined {
  process.umask(GROUP_AND_OTHER);
  try {
    fs.mkdirSync(dataDir, { recursive: true, mode: OWNER_ONLY });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') throw new StartError(`DATA_DIR ${dataDir} is not a folder`);
    throw err;
  }
  const stat = fs.statSync(dataDir);
  // A folder every user writes in (/tmp) is no place for the data, and tightening it would break the machine.
  if (stat.mode & STICKY) throw new StartError(`DATA_DIR ${dataDir} is a shared folder (sticky bit, like /tmp): give the service a folder of its own`);
  const folderMode = stat.mode & 0o777;
  let files: number;
  try {
    if (folderMode & GROUP_AND_OTHER) fs.chmodSync(dataDir, folderMode & ~GROUP_AND_OTHER);
    files = tightenTree(path.join(dataDir, 'pglite'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') throw err;
    throw new StartError(`DATA_DIR ${dataDir} is readable by other users and belongs to another user, so this one cannot make it private: chmod 700 it, or choose another DATA_DIR`);
  }
  return folderMode & GROUP_AND_OTHER || files > 0 ? { folderMode, files } : undefined;
}

/** Clears group and other bits under `root` (symbolic links are left alone); answers how many entries changed. */
function tightenTree(root: string): number {
  let changed = 0;
  const visit = (entry: string) => {
    const stat = fs.lstatSync(entry, { throwIfNoEntry: false });
    if (!stat || stat.isSymbolicLink()) return;
    if (stat.mode & GROUP_AND_OTHER) {
      fs.chmodSync(entry, stat.mode & 0o7777 & ~GROUP_AND_OTHER);
      changed++;
    }
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(root);
  return changed;
}

/** The log line of a start that tightened DATA_DIR: what was open, and that it is closed. */
export function describeTightened(dataDir: string, { folderMode, files }: Tightened): [Record<string, unknown>, string] {
  const mode = `0${folderMode.toString(8)}`;
  const what = folderMode & GROUP_AND_OTHER ? `was open to other local users (mode ${mode})` : 'held database files open to other local users';
  return [{ dataDir, previousMode: mode, databaseFiles: files }, `DATA_DIR ${what}: made owner-only (folder 0700, ${files} database files tightened)`];
}
