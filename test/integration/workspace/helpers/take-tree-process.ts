import { createLogger } from '../../../../src/logging/logger.js';
import { takeTree, type TakeTreeOptions } from '../../../../src/workspace/tree-pool.js';

// Takes a tree of the pool in its own process, prints what it got, and gives it back when told on stdin.
const options = JSON.parse(process.argv[2] ?? '{}') as Omit<TakeTreeOptions, 'log'>;
const lease = await takeTree({ ...options, log: createLogger({ level: 'silent' }) });
process.stdout.write(`${JSON.stringify(lease ? { dir: lease.workspace.dir, reused: lease.reused, head: lease.workspace.headSha } : null)}\n`);
process.stdin.once('data', async () => {
  await lease?.release();
  process.exit(0);
});
