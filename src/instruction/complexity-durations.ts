import type { Complexity } from './instruction-types.js';

/** Indicative duration of each complexity, in minutes. */
export const COMPLEXITY_MINUTES: Record<Complexity, { min: number; max?: number; label: string }> = {
  simple: { min: 5, max: 15, label: '5–15 min' },
  medium: { min: 15, max: 45, label: '15–45 min' },
  complex: { min: 45, label: '45+ min' },
};
