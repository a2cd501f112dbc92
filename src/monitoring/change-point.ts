/**
 * One change point in a series of samples, found by the least-squares two-segment fit
 * (a single step of binary segmentation): for every split k the series is modelled as
 * mean(before k) then mean(from k), and the split with the smallest total squared error wins.
 * The split is reported only when the shift is large against the noise before it:
 * |mean after - mean before| >= minSigmas * stddev(before) and >= minRelativeShift * |mean before|.
 *
 * A windowed query (`rate(…[5m])`) turns a step into a ramp as long as its window, and the split lands in the
 * middle of it. So the onset is found too: from the split back through the ramp to the last sample still at
 * the level before (measured on the samples before the ramp could have begun). The change began after that
 * sample and by the next one.
 */
import { elementAt } from '../arrays/element-at.js';

export interface Sample {
  readonly time: number; // unix seconds
  readonly value: number;
}

export interface ChangePoint {
  /** The first sample of the changed level (the onset's end; the fit's split when there is no ramp). */
  readonly time: number;
  /** The change began after `from` (the last sample at the level before) and by `time`. */
  readonly from: number;
  /** Where the least-squares fit split the series (mid-ramp for a windowed query). */
  readonly split: number;
  readonly before: number;
  readonly after: number;
  readonly sigmas: number;
}

export interface ChangePointOptions {
  readonly minSegment?: number;
  readonly minSigmas?: number;
  readonly minRelativeShift?: number;
  /** How far back the query looks at each point (its range window, e.g. 300 for `[5m]`): the longest ramp a step can become. */
  readonly lookbackSeconds?: number;
}

export function findChangePoint(samples: readonly Sample[], options: ChangePointOptions = {}): ChangePoint | undefined {
  const minSegment = options.minSegment ?? 3;
  const minSigmas = options.minSigmas ?? 3;
  const minRelativeShift = options.minRelativeShift ?? 0.2;
  const points = samples.filter((sample) => Number.isFinite(sample.value));
  if (points.length < minSegment * 2) return undefined;

  const prefix = [0];
  const prefixSquares = [0];
  let runningSum = 0;
  let runningSquares = 0;
  for (const { value } of points) {
    runningSum += value;
    runningSquares += value * value;
    prefix.push(runningSum);
    prefixSquares.push(runningSquares);
  }
  const total = (sums: number[], from: number, to: number) => elementAt(sums, to) - elementAt(sums, from);
  const squaredError = (from: number, to: number) => {
    const n = to - from;
    const sum = total(prefix, from, to);
    return total(prefixSquares, from, to) - (sum * sum) / n;
  };

  let best: { split: number; error: number } | undefined;
  for (let split = minSegment; split <= points.length - minSegment; split++) {
    const error = squaredError(0, split) + squaredError(split, points.length);
    if (!best || error < best.error) best = { split, error };
  }
  if (!best) return undefined;

  const before = total(prefix, 0, best.split) / best.split;
  const after = total(prefix, best.split, points.length) / (points.length - best.split);
  const noise = Math.sqrt(Math.max(squaredError(0, best.split), 0) / best.split);
  const shift = Math.abs(after - before);
  const sigmas = noise > 0 ? shift / noise : Number.POSITIVE_INFINITY;
  if (shift === 0 || sigmas < minSigmas) return undefined;
  if (shift < minRelativeShift * Math.abs(before)) return undefined;

  const { onset, from } = onsetRange(points, best.split, after, options.lookbackSeconds ?? 0, minSigmas);
  return { time: elementAt(points, onset).time, from: elementAt(points, from).time, split: elementAt(points, best.split).time, before, after, sigmas };
}

/**
 * The onset: `onset` is the first sample of the ramp that ends in the split (walking back from the split while a
 * sample has left the level before) and `from` the last sample before it. That level is measured on the samples
 * older than the longest ramp the query's window allows (one window and two steps before the split). When the
 * series holds too few of them, the onset cannot be told apart: it is anywhere from one window before the split
 * to the split, and that whole span is reported.
 */
function onsetRange(points: readonly Sample[], split: number, after: number, lookbackSeconds: number, minSigmas: number): { onset: number; from: number } {
  const step = medianStep(points);
  const splitTime = elementAt(points, split).time;
  const rampStart = splitTime - lookbackSeconds - 2 * step;
  let baselineEnd = points.findIndex((point) => point.time >= rampStart);
  if (baselineEnd < 0 || baselineEnd > split) baselineEnd = split;
  if (baselineEnd < 2) {
    const earliest = points.findIndex((point) => point.time >= splitTime - lookbackSeconds - step);
    return { onset: split, from: Math.max(0, Math.min(split - 1, earliest - 1)) };
  }
  const baseline = points.slice(0, baselineEnd).map((point) => point.value);
  const mean = baseline.reduce((sum, value) => sum + value, 0) / baseline.length;
  const deviation = Math.sqrt(baseline.reduce((sum, value) => sum + (value - mean) ** 2, 0) / baseline.length);
  const direction = Math.sign(after - mean) || 1;
  // Left the level: beyond the noise, and by a visible part of the shift (a constant series has no noise).
  const threshold = Math.max(minSigmas * deviation, 0.05 * Math.abs(after - mean));
  const hasLeft = (index: number) => direction * (elementAt(points, index).value - mean) > threshold;
  let onset = split;
  while (onset - 1 >= Math.max(1, baselineEnd) && hasLeft(onset - 1)) onset--;
  return { onset: Math.max(onset, 1), from: Math.max(onset, 1) - 1 };
}

function medianStep(points: readonly Sample[]): number {
  const gaps = points
    .slice(1)
    .map((point, index) => point.time - elementAt(points, index).time)
    .sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)] ?? 0;
}
