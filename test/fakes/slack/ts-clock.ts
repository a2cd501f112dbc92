let lastMicros = 0;

/** Slack message timestamps ("seconds.micros"), strictly increasing across the whole test process. */
export function nextSlackTs(): string {
  lastMicros = Math.max(lastMicros + 1, Date.now() * 1000);
  return formatTs(lastMicros);
}

/** Makes sure later generated timestamps sort after `ts`. */
export function observeSlackTs(ts: string): void {
  const micros = parseTs(ts);
  if (Number.isFinite(micros)) lastMicros = Math.max(lastMicros, micros);
}

export function compareTs(a: string, b: string): number {
  return parseTs(a) - parseTs(b);
}

function parseTs(ts: string): number {
  const [seconds = '0', fraction = '0'] = ts.split('.');
  return Number(seconds) * 1_000_000 + Number(fraction.padEnd(6, '0').slice(0, 6));
}

function formatTs(micros: number): string {
  return `${Math.floor(micros / 1_000_000)}.${String(micros % 1_000_000).padStart(6, '0')}`;
}
