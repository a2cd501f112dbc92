declare module 'madge' {
  interface MadgeResult {
    /** Each file (relative to baseDir) with the files it imports. */
    obj(): Record<string, string[]>;
  }
  export default function madge(paths: string | string[], config: { fileExtensions?: string[]; tsConfig?: string; baseDir?: string }): Promise<MadgeResult>;
}
