import { lstat } from 'node:fs/promises';
import { createHostSocketScanner, type HostSocketScan } from './host-sockets.js';
import { isInside } from './workspace-path.js';

/** How often /usr is scanned again: a socket made there after a scan is reachable until the next one has finished. */
export const USR_RESCAN_MS = 60_000;
/** Directories the background scan looks at between two turns of the event loop: a first scan blocks it ~2 ms at a time. */
const BACKGROUND_SLICE = 20;

export interface UsrSocketWatch {
  /** Starts the scans (the first at once, then every `intervalMs`) if they have not started; never waits for one. */
  start(): void;
  /** What the latest finished scan found. Before the first has finished, waits for it (and starts it if need be). */
  latest(): Promise<HostSocketScan>;
}

/**
 * Socket files (and unlistable directories) under /usr outside /usr/local, found in the background: /usr is too large
 * to scan before every command (16,000 directories), and /usr/local is scanned before every command anyway. A scan
 * reuses the listings of unchanged directories (see host-sockets.ts), so one after the first costs an lstat per
 * directory. A scan that fails leaves the latest result standing; the next is made on time. The timer never keeps the
 * process alive. `roots` and `skip` stand in for /usr and /usr/local in tests.
 */
export function createUsrSocketWatch(options: { roots?: readonly string[]; skip?: readonly string[]; intervalMs?: number } = {}): UsrSocketWatch {
  const roots = options.roots ?? ['/usr'];
  const skip = options.skip ?? ['/usr/local'];
  const scan = createHostSocketScanner(Date.now, BACKGROUND_SLICE);
  let found: HostSocketScan | undefined;
  let running: Promise<HostSocketScan> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const run = () =>
    (running ??= scan(roots, skip)
      .then((result) => (found = result))
      .finally(() => {
        running = undefined;
      }));

  const start = () => {
    if (timer) return;
    timer = setInterval(() => run().catch(() => {}), options.intervalMs ?? USR_RESCAN_MS);
    timer.unref();
    run().catch(() => {});
  };

  return {
    start,
    async latest() {
      start();
      return found ?? run();
    },
  };
}

/** Shared by every sandbox of the process: one background scan of /usr for all of them. */
export const usrSocketWatch = createUsrSocketWatch();

/**
 * What of a /usr scan a command masks: what is in a directory shown to it (not under `skip`: the workspace, HOME,
 * hidden places) and still there. A socket gone since the scan needs no mask, and its mount point could not be made in
 * the read-only root (bwrap would fail to start); so with a directory that is gone.
 */
export async function usrMasks(scan: HostSocketScan, shown: readonly string[], skip: readonly string[]): Promise<HostSocketScan> {
  const applies = (place: string) => shown.some((dir) => isInside(dir, place)) && !skip.some((dir) => isInside(dir, place));
  const still = async (places: readonly string[], kind: 'isSocket' | 'isDirectory') => {
    const kept = await Promise.all(places.filter(applies).map(async (place) => ((await lstat(place).catch(() => undefined))?.[kind]() ? place : undefined)));
    return kept.filter((place): place is string => !!place);
  };
  return { sockets: await still(scan.sockets, 'isSocket'), unlisted: await still(scan.unlisted, 'isDirectory') };
}
