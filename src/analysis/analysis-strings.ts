/**
 * A data analysis's sections in English (the source the thread catalogues translate): the main result and the files
 * not shared. Paths come in backticks, the table as the agent wrote it.
 */
export const analysisEn = {
  mainResult: 'Main result',
  fromReport: (path: string) => `From ${path}; the report and charts are shared with this result (not committed).`,
  noTable: (path: string) => `${path} has no table; it is attached below.`,
  noReport: (folder: string) => `The run left no report in ${folder}.`,
  notUploaded: 'Not uploaded',
  skippedType: 'not a report or chart type I share',
  skippedCount: (max: number) => `more than ${max} files`,
  skippedSize: 'too large to upload',
};

export type AnalysisStrings = typeof analysisEn;
