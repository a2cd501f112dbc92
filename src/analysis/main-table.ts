const MAX_ROWS = 25;
const MAX_CELL = 40;

/** The first Markdown (GFM) table of a report: header and body rows as cells; undefined when there is none. */
export function findMainTable(markdown: string): string[][] | undefined {
  const lines = markdown.split('\n');
  for (const [i, line] of lines.entries()) {
    if (!isRow(line) || !isSeparator(lines[i + 1])) continue;
    const header = cells(line);
    const rows = [header];
    for (const next of lines.slice(i + 2)) {
      if (!isRow(next)) break;
      rows.push(cells(next));
    }
    return rows.map((row) => normaliseWidth(row, header.length));
  }
  return undefined;
}

/**
 * A table as aligned monospace text in a code block, which Slack shows as a table (it has no Markdown
 * tables). Numbers are right-aligned; long tables show their first rows and say how many more there are.
 */
export function renderTextTable(rows: string[][], maxRows = MAX_ROWS): string {
  const [header, ...body] = rows.map((row) => row.map(clip));
  if (!header) return '';
  const shown = body.slice(0, maxRows);
  const widths = header.map((_, c) => Math.max(...[header, ...shown].map((row) => (row[c] ?? '').length)));
  const numeric = header.map((_, c) => shown.length > 0 && shown.every((row) => /^[-+]?[$€£]?[\d,.]+%?$|^$/.test(row[c] ?? '')));
  const line = (row: string[]) =>
    row
      .map((cell, c) => (numeric[c] ? cell.padStart(widths[c] ?? 0) : cell.padEnd(widths[c] ?? 0)))
      .join('  ')
      .trimEnd();
  const text = [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...shown.map(line)];
  if (body.length > shown.length) text.push(`… ${body.length - shown.length} more rows in the report`);
  return `\`\`\`\n${text.join('\n').replace(/```/g, "'''")}\n\`\`\``;
}

function isRow(line: string | undefined): boolean {
  return !!line && /^\s*\|?.*\|.*\|?\s*$/.test(line) && line.includes('|');
}

function isSeparator(line: string | undefined): boolean {
  return !!line && /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(line);
}

function cells(line: string): string[] {
  const trimmed = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return trimmed.split(/(?<!\\)\|/).map((cell) =>
    cell
      .trim()
      .replace(/\\\|/g, '|')
      .replace(/\*\*(.+?)\*\*/g, '$1')
      .replace(/`([^`]*)`/g, '$1'),
  );
}

function normaliseWidth(row: string[], width: number): string[] {
  return row.length >= width ? row.slice(0, width) : [...row, ...Array<string>(width - row.length).fill('')];
}

function clip(cell: string): string {
  return cell.length > MAX_CELL ? `${cell.slice(0, MAX_CELL - 1)}…` : cell;
}
