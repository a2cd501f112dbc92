export const DEFAULT_MAX_OUTPUT_CHARS = 10_000;

export interface CapturedOutput {
  output: string;
  elidedChars: number;
}

/**
 * Keeps the head and a rolling tail of a stream of text, whatever its length: memory stays
 * bounded by `maxChars` however much a command prints.
 */
export class OutputCapture {
  private head = '';
  private tail = '';
  private total = 0;
  private readonly headMax: number;
  private readonly tailMax: number;

  constructor(maxChars = DEFAULT_MAX_OUTPUT_CHARS) {
    const max = Math.max(0, Math.floor(maxChars));
    this.headMax = Math.floor(max / 2);
    this.tailMax = max - this.headMax;
  }

  push(text: string): void {
    if (!text) return;
    this.total += text.length;
    let rest = text;
    if (this.head.length < this.headMax) {
      const room = this.headMax - this.head.length;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (!rest || this.tailMax === 0) return;
    if (rest.length >= this.tailMax) this.tail = rest.slice(rest.length - this.tailMax);
    else this.tail = (this.tail + rest).slice(-this.tailMax);
  }

  result(): CapturedOutput {
    const elidedChars = this.total - this.head.length - this.tail.length;
    if (elidedChars <= 0) return { output: this.head + this.tail, elidedChars: 0 };
    return { output: `${this.head}\n\n[... ${elidedChars} characters elided ...]\n\n${this.tail}`, elidedChars };
  }
}
