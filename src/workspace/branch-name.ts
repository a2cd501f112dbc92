const MAX_SLUG = 40;

/** `wrench/<slug>-<shortId>`: a readable, valid git branch name for a task. */
export function branchName(instructionText: string, shortId: string): string {
  const id = slugify(shortId);
  const slug = truncate(slugify(withoutSlackMarkup(instructionText))) || 'task';
  return id ? `wrench/${slug}-${id}` : `wrench/${slug}`;
}

function withoutSlackMarkup(text: string): string {
  return text
    .replace(/<[@#!][^>]*>/g, ' ')
    .replace(/<[^>|]*\|([^>]*)>/g, ' $1 ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\bhttps?:\/\/\S+/gi, ' ')
    .replace(/&(amp|lt|gt);/g, ' ');
}

function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

function truncate(slug: string): string {
  if (slug.length <= MAX_SLUG) return slug;
  const cut = slug.slice(0, MAX_SLUG + 1);
  const lastDash = cut.lastIndexOf('-');
  return (lastDash > 0 ? cut.slice(0, lastDash) : slug.slice(0, MAX_SLUG)).replace(/-+$/, '');
}
