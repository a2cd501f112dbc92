import type { CodeReferences } from './code-references.js';
import type { SectionKind } from './labelled-sections.js';
import { cleanItem } from './sentences.js';
import { withoutCodeMarkers } from './slack-markup.js';

/** Where the work is: labelled locations and targets first, then paths, directories and functions found anywhere. */
export function locationItems(sections: Partial<Record<SectionKind, string>>, references: CodeReferences): string[] {
  const labelled = [sections.location, sections.target]
    .flatMap((content) => (content ? withoutCodeMarkers(content).split(/\s*(?:,|;|\n)\s*/) : []))
    .map((item) => stripQuotes(cleanItem(item)))
    .filter(Boolean);
  const found = [...references.files, ...references.directories, ...references.functions];
  const items: string[] = [];
  for (const item of [...labelled, ...found]) {
    const key = normaliseLocation(item);
    const known = items.some((existing) => {
      const other = normaliseLocation(existing);
      return other === key || (!key.includes('/') && other.endsWith(`/${key}`));
    });
    if (!known) items.push(item);
  }
  return items;
}

function normaliseLocation(item: string): string {
  return item
    .replace(/[`()]/g, '')
    .replace(/:\d+(?::\d+)?$/, '')
    .toLowerCase();
}

export function stripQuotes(item: string): string {
  return item
    .replace(/^[`"']+|[`"']+$/g, '')
    .replace(/\(\)$/, '')
    .trim();
}
