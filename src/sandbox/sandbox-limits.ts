/** Resource limits of one sandboxed command (each process of it, except maxProcesses). */
export interface SandboxLimits {
  /** CPU seconds per process (RLIMIT_CPU). */
  cpuSeconds?: number;
  /**
   * Heap and private mappings per process (RLIMIT_DATA): unlike RLIMIT_AS it lets Node reserve address space.
   * Keep it at 1 GiB or more: Node 22+ cannot start below about 600 MB (V8 reserves its code range).
   */
  memoryBytes?: number;
  /** Tasks at once: a pids cgroup when the host offers one, and RLIMIT_NPROC (not enforced for root). */
  maxProcesses?: number;
  /** Largest file a process may write (RLIMIT_FSIZE): past it the writer gets SIGXFSZ. */
  fileSizeBytes?: number;
}

const GiB = 1024 ** 3;

export const DEFAULT_LIMITS: Required<SandboxLimits> = {
  cpuSeconds: 30 * 60,
  memoryBytes: 8 * GiB,
  maxProcesses: 2048,
  fileSizeBytes: 2 * GiB,
};

export function withDefaults(limits: SandboxLimits = {}): Required<SandboxLimits> {
  return {
    cpuSeconds: limits.cpuSeconds ?? DEFAULT_LIMITS.cpuSeconds,
    memoryBytes: limits.memoryBytes ?? DEFAULT_LIMITS.memoryBytes,
    maxProcesses: limits.maxProcesses ?? DEFAULT_LIMITS.maxProcesses,
    fileSizeBytes: limits.fileSizeBytes ?? DEFAULT_LIMITS.fileSizeBytes,
  };
}

/** Shell statements that apply the limits to the shell and everything it starts (bash units: KiB). */
export function ulimitPrelude(limits: Required<SandboxLimits>): string {
  const kib = (bytes: number) => Math.max(1, Math.floor(bytes / 1024));
  return [
    `ulimit -t ${Math.max(1, Math.floor(limits.cpuSeconds))}`,
    `ulimit -d ${kib(limits.memoryBytes)}`,
    `ulimit -u ${Math.max(1, Math.floor(limits.maxProcesses))}`,
    `ulimit -f ${kib(limits.fileSizeBytes)}`,
  ]
    .map((statement) => `${statement} 2>/dev/null; `)
    .join('');
}
