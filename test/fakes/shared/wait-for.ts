/** Polls `find` until it returns a value, or fails after `timeoutMs` with `describe()` in the message. */
export async function pollFor<T>(find: () => T | undefined, timeoutMs: number, describe: () => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() >= deadline) throw new Error(`waited ${timeoutMs} ms: ${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
