import { randomBytes } from 'node:crypto';

let counter = 0;

/** A name no other test run or test in this run will produce: for queue prefixes, Redis keys, branches. */
export function uniqueName(prefix = 'test'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}-${randomBytes(3).toString('hex')}`;
}
