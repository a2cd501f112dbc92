/** A file someone attached to the message that asked for the work: input data for the run. */
export interface InputFile {
  name: string;
  /** Bytes, as the source reports it (checked again while downloading). */
  size: number;
  mimetype?: string;
  /** The file's bytes; throws `input_too_large` beyond `maxBytes`. */
  download(maxBytes: number): Promise<Buffer>;
}

/** Where a run's input files come from (the Slack message, for jobs from Slack). */
export interface InputFileSource {
  list(): Promise<InputFile[]>;
  /**
   * The files people attached to the thread's messages after `after` (a Slack ts; from the thread's start when absent)
   * up to the message that asked for the work, oldest first: a run's screenshots and images.
   */
  threadFiles?(after?: string): Promise<InputFile[]>;
}
