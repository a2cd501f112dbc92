import { accessSync, constants, type Dirent, lstatSync, readdirSync, type Stats } from 'node:fs';
import path from 'node:path';
import { isInside } from './workspace-path.js';

/** What a scan found under the directories shown to the sandbox: places to mask before a command starts. */
export interface HostSocketScan {
  /** Socket files: each gets /dev/null bound over it, so connect() on its path is refused. */
  sockets: string[];
  /** Directories Wrench may enter but not list: a socket inside could not be seen, so each is hidden behind a tmpfs. */
  unlisted: string[];
}

interface Listing {
  dev: number;
  ino: number;
  ctimeMs: number;
  sockets: string[];
  subdirs: string[];
  /** Changed more than a second before it was read: a later change shows as a new ctime, so the listing can be reused. */
  settled: boolean;
}

/** A directory changed this close to its reading may change again within the same timestamp tick: read it again next time. */
const SETTLE_MS = 1000;
/** Directories looked at between two turns of the event loop (each is one lstat, and one readdir when it changed). */
export const SLICE = 200;
/** Levels below a scanned directory looked into. */
const MAX_DEPTH = 32;

/**
 * Finds the socket files under the given directories, never following symlinks (a link's target is shown only if it
 * is itself under a scanned directory, and is found there). Listings are kept by directory and reused while the
 * directory's change time (ctime, which no system call sets) is the same: a socket created, renamed or bound in a
 * directory changes it. So a scan after the first costs one lstat per directory, and still sees a socket that appeared
 * since. Nothing is followed deeper than MAX_DEPTH levels. The calls are synchronous (a thread-pool round trip per
 * directory made the scan five times slower), in slices of `slice` directories with the event loop free in between.
 * `now` is the wall clock in milliseconds (tests move it forward instead of waiting).
 */
export function createHostSocketScanner(now: () => number = Date.now, slice = SLICE) {
  const cache = new Map<string, Listing>();

  function look(dir: string, found: HostSocketScan): string[] {
    const stat = lstatOrNothing(dir);
    if (!stat?.isDirectory()) {
      cache.delete(dir);
      return [];
    }
    const cached = cache.get(dir);
    if (cached?.settled && cached.dev === stat.dev && cached.ino === stat.ino && cached.ctimeMs === stat.ctimeMs) {
      found.sockets.push(...cached.sockets);
      return cached.subdirs;
    }
    const readAt = now();
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      cache.delete(dir);
      // Not listable but enterable: a socket inside is reachable by its name, which Wrench cannot know.
      if (enterable(dir)) found.unlisted.push(dir);
      return [];
    }
    const listing: Listing = {
      dev: stat.dev,
      ino: stat.ino,
      ctimeMs: stat.ctimeMs,
      sockets: entries.filter((entry) => entry.isSocket()).map((entry) => path.join(dir, entry.name)),
      subdirs: entries.filter((entry) => entry.isDirectory()).map((entry) => path.join(dir, entry.name)),
      settled: stat.ctimeMs < readAt - SETTLE_MS,
    };
    cache.set(dir, listing);
    found.sockets.push(...listing.sockets);
    return listing.subdirs;
  }

  /** Socket files and unlistable directories under `roots`, leaving out whatever is under `skip` (never scanned). */
  return async function scan(roots: readonly string[], skip: readonly string[] = []): Promise<HostSocketScan> {
    const found: HostSocketScan = { sockets: [], unlisted: [] };
    // Only places inside a scanned directory can be met; the paths are real and absolute, so a prefix tells.
    const skips = skip.filter((place) => roots.some((root) => isInside(root, place)));
    const skipped = (dir: string) => skips.some((place) => dir === place || dir.startsWith(`${place}/`));
    const queue = [...new Set(roots)].filter((dir) => !skip.some((place) => isInside(place, dir))).map((dir) => ({ dir, depth: 0 }));
    let done = 0;
    for (let next = queue.pop(); next; next = queue.pop()) {
      if (++done % slice === 0) await new Promise((resolve) => setImmediate(resolve));
      const { dir, depth } = next;
      // Deeper than any real tree (a bind mount of a directory inside itself would never end): hidden, not scanned.
      if (depth > MAX_DEPTH) found.unlisted.push(dir);
      else for (const subdir of look(dir, found)) if (!skipped(subdir)) queue.push({ dir: subdir, depth: depth + 1 });
    }
    return { sockets: [...new Set(found.sockets)].sort(), unlisted: [...new Set(found.unlisted)].sort() };
  };
}

/**
 * A directory's status, or nothing where it is gone or cannot be reached: inside a directory that can be listed but not
 * entered (read without search permission), a command cannot reach a socket either, as it runs as this same user.
 */
function lstatOrNothing(dir: string): Stats | undefined {
  try {
    return lstatSync(dir, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function enterable(dir: string): boolean {
  try {
    accessSync(dir, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
