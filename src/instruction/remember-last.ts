/**
 * Wraps a pure function of a string so that calling it again with the same string returns the previous result.
 * One reading asks the same question of the same text from several places; this keeps that cheap.
 */
export function rememberLast<T>(compute: (text: string) => T): (text: string) => T {
  let lastText: string | undefined;
  let lastResult!: T;
  return (text) => {
    if (text !== lastText) {
      lastResult = compute(text);
      lastText = text;
    }
    return lastResult;
  };
}
