// One process at a time on an embedded data directory. PGlite does not guard its files: a second
// process opening the same DATA_DIR (a second `npm start` that then fails to bind its port) wrote
// into the first one's database and left it unreadable. So the server takes DATA_DIR/zhusuan.pid
// before it opens the database, and refuses to start while a live process holds it.
//
// The file is written beside its place and linked into it, which fails when the place is taken, so
// it is never seen half written. A file whose process is gone (kill -9, a crash, a power cut) is
// stale: it is moved aside and taken. A file naming this very process but
// not held by it is stale too: in a container the server is pid 1 on every start.
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = 'zhusuan.pid';

/** Refused: another live process holds the data directory. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `Zhusuan: the data directory ${dataDir} is in use by process ${pid} (another Zhusuan server?). ` +
        `Two processes on one embedded database would damage it: stop that process, or give this one another DATA_DIR. ` +
        `If no such process runs, remove ${join(dataDir, LOCK_FILE)}.`,
    );
    this.name = 'DataDirLockedError';
  }
}

/** Lock files this process holds (two apps of one process must not share a directory either). */
const held = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid a lock file names; undefined when there is none. */
function ownerOf(path: string): number | undefined {
  try {
    return Number.parseInt(readFileSync(path, 'utf8'), 10);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function tryCreate(path: string): boolean {
  const mine = `${path}.${process.pid}`;
  writeFileSync(mine, `${process.pid}\n`);
  try {
    linkSync(mine, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    rmSync(mine, { force: true });
  }
}

/** Moves a stale file out of the way; one that turns out to be another process's fresh one goes back. */
function removeStale(path: string, owner: number) {
  const aside = `${path}.stale-${process.pid}`;
  try {
    renameSync(path, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // another process moved it first
    throw err;
  }
  try {
    if (!Object.is(ownerOf(aside), owner)) linkSync(aside, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(aside, { force: true });
  }
}

/**
 * Takes the data directory for this process, or throws DataDirLockedError naming the process that
 * has it. Answers the release (idempotent), which close() calls; the file also goes when the process exits.
 */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(path)) return holdUntilReleased(path);
    const owner = ownerOf(path);
    if (owner === undefined) continue; // released meanwhile
    const stale = Number.isNaN(owner) || (owner === process.pid ? !held.has(path) : !isAlive(owner));
    if (!stale) throw new DataDirLockedError(dataDir, owner);
    removeStale(path, owner);
  }
  throw new Error(`Zhusuan: could not take ${path}: it keeps changing hands`);
}

function holdUntilReleased(path: string): () => void {
  held.add(path);
  const release = () => {
    if (!held.delete(path)) return;
    process.off('exit', release);
    if (ownerOf(path) === process.pid) rmSync(path, { force: true });
  };
  process.on('exit', release);
  return release;
}
