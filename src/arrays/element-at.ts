/**
 * The element at an index the caller has already bounded (a loop limit, a length check): a miss is a bug in the
 * caller, so it throws instead of letting `undefined` through as a value.
 */
export function elementAt<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new RangeError(`Index ${index} is outside 0..${items.length - 1}.`);
  return item;
}
