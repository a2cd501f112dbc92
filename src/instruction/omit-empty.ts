/** Drops undefined values, empty strings, empty lists and empty nested objects. */
export function withoutEmptyParts<T extends object>(value: T): T {
  const result: Record<string, unknown> = {};
  for (const [key, part] of Object.entries(value)) {
    if (part === undefined || part === '' || (Array.isArray(part) && part.length === 0)) continue;
    if (typeof part === 'object' && !Array.isArray(part)) {
      const nested = withoutEmptyParts(part as object);
      if (Object.keys(nested).length > 0) result[key] = nested;
      continue;
    }
    result[key] = part;
  }
  return result as T;
}
