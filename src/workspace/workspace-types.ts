/** The checkout one job works in. */
export interface JobWorkspace {
  dir: string;
  baseBranch: string;
  /** Tip of the base branch; for an existing branch, its merge base with the base branch. */
  baseSha: string;
  branch: string;
  headSha: string;
}
