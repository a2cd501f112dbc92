import { readFileSync } from 'node:fs';

/** Share of the host's task table above which a sandboxed command is assumed to be a fork bomb. */
export const PID_PRESSURE_SHARE = 0.75;

let capacity: number | undefined;

/**
 * Whether the host's task table is nearly full (the last resort against a fork bomb when no pids
 * cgroup is available: RLIMIT_NPROC is not enforced for root).
 */
export function hostPidPressureHigh(share = PID_PRESSURE_SHARE): boolean {
  const tasks = currentTasks();
  if (tasks === undefined) return false;
  return tasks > taskCapacity() * share;
}

function currentTasks(): number | undefined {
  try {
    const fields = readFileSync('/proc/loadavg', 'utf8').split(' ');
    const total = Number(fields[3]?.split('/')[1]);
    return Number.isFinite(total) ? total : undefined;
  } catch {
    return undefined;
  }
}

function taskCapacity(): number {
  capacity ??= Math.min(readNumber('/proc/sys/kernel/pid_max'), readNumber('/proc/sys/kernel/threads-max'));
  return capacity;
}

function readNumber(file: string): number {
  try {
    const value = Number(readFileSync(file, 'utf8').trim());
    return Number.isFinite(value) && value > 0 ? value : Number.POSITIVE_INFINITY;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
