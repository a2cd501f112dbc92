/**
 * One change point in a series of samples, found by the least-squares two-segment fit
 * (a single step of binary segmentation): for every split k the series is modelled as
 * mean(before k) then mean(from k), and the split with the smallest total squared error wins.
 * The split is reported only when the shift is large against the noise before it:
 * |mean after - mean before| >= minSigmas * stddev(before) and >= minRelativeShift * |mean before|.
 */
export interface Sample {
  readonly time: number; // unix seconds
  readonly value: number;
}

export interface ChangePoint {
  readonly time: number;
  readonly before: number;
  readonly after: number;
  readonly sigmas: number;
}

export interface ChangePointOptions {
  readonly minSegment?: number;
  readonly minSigmas?: number;
  readonly minRelativeShift?: number;
}

export function findChangePoint(samples: readonly Sample[], options: ChangePointOptions = {}): ChangePoint | undefined {
  const minSegment = options.minSegment ?? 3;
  const minSigmas = options.minSigmas ?? 3;
  const minRelativeShift = options.minRelativeShift ?? 0.2;
  const points = samples.filter((sample) => Number.isFinite(sample.value));
  if (points.length < minSegment * 2) return undefined;

  const prefix = [0];
  const prefixSquares = [0];
  for (const { value } of points) {
    prefix.push(prefix[prefix.length - 1] + value);
    prefixSquares.push(prefixSquares[prefixSquares.length - 1] + value * value);
  }
  const squaredError = (from: number, to: number) => {
    const n = to - from;
    const sum = prefix[to] - prefix[from];
    return prefixSquares[to] - prefixSquares[from] - (sum * sum) / n;
  };

  let best: { split: number; error: number } | undefined;
  for (let split = minSegment; split <= points.length - minSegment; split++) {
    const error = squaredError(0, split) + squaredError(split, points.length);
    if (!best || error < best.error) best = { split, error };
  }
  if (!best) return undefined;

  const before = (prefix[best.split] - prefix[0]) / best.split;
  const after = (prefix[points.length] - prefix[best.split]) / (points.length - best.split);
  const noise = Math.sqrt(Math.max(squaredError(0, best.split), 0) / best.split);
  const shift = Math.abs(after - before);
  const sigmas = noise > 0 ? shift / noise : Number.POSITIVE_INFINITY;
  if (shift === 0 || sigmas < minSigmas) return undefined;
  if (shift < minRelativeShift * Math.abs(before)) return undefined;
  return { time: points[best.split].time, before, after, sigmas };
}
