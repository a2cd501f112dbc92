/** A unified-diff view of one text-editor call, from its input (the file itself is not read back). */
export function editDiff(input: unknown): { path: string; diff: string } | null {
  if (!input || typeof input !== 'object') return null;
  const call = input as Record<string, unknown>;
  const path = typeof call.path === 'string' ? call.path : null;
  if (!path) return null;
  const lines = (value: unknown) => (typeof value === 'string' ? value.replace(/\n$/, '').split('\n') : []);
  const mark = (sign: string, values: string[]) => values.map((line) => `${sign}${line}`);
  switch (call.command) {
    case 'create': {
      const added = lines(call.file_text);
      return { path, diff: ['--- /dev/null', `+++ b/${path}`, `@@ -0,0 +1,${added.length} @@`, ...mark('+', added)].join('\n') };
    }
    case 'str_replace': {
      const removed = lines(call.old_str);
      const added = lines(call.new_str);
      return {
        path,
        diff: [
          `--- a/${path}`,
          `+++ b/${path}`,
          `@@ replaced ${removed.length} line(s) with ${added.length} @@`,
          ...mark('-', removed),
          ...mark('+', added),
        ].join('\n'),
      };
    }
    case 'insert': {
      const added = lines(call.new_str ?? call.insert_text);
      return { path, diff: [`--- a/${path}`, `+++ b/${path}`, `@@ inserted after line ${String(call.insert_line ?? '?')} @@`, ...mark('+', added)].join('\n') };
    }
    default:
      return null;
  }
}
