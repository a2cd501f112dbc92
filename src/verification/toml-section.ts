/** The body of a `[section]` in a TOML or INI file (up to the next header), or undefined when absent. */
export function tomlSection(text: string, name: string): string | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.trim() === `[${name}]`);
  if (start < 0) return undefined;
  const end = lines.findIndex((line, i) => i > start && /^\s*\[[^\]]+\]\s*$/.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** Whether a section header starting with `prefix` exists: `[tool.ruff]`, `[tool.ruff.lint]`, ... */
export function hasSection(text: string, prefix: string): boolean {
  return text.split('\n').some((line) => {
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(line)?.[1];
    return header !== undefined && (header === prefix || header.startsWith(`${prefix}.`));
  });
}
