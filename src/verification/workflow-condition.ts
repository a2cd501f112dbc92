type Value = string | number | boolean | null;

class Unreadable extends Error {}

const TOKEN =
  /\s*(?:(0x[\da-f]+|\d+(?:\.\d+)?(?:e[+-]?\d+)?)|'((?:[^']|'')*)'|([A-Za-z_][\w-]*(?:\.[\w-]+|\[\s*'[^']*'\s*\])*)|(==|!=|<=|>=|&&|\|\||[!<>()]))/iy;

/**
 * A step's `if:` as GitHub Actions evaluates it, for one matrix combination on a Linux runner: `matrix.*`, `runner.os`,
 * literals, `== != < <= > >= && || !`, parentheses and the status functions (`success()`, `always()`, `!cancelled()`;
 * the steps before succeeded). Undefined when the condition needs anything else (`github.*`, `env.*`, `steps.*`, other
 * functions): Wrench cannot know it.
 */
export function evaluateCondition(condition: unknown, matrix: Readonly<Record<string, string>>): boolean | undefined {
  if (typeof condition === 'boolean') return condition;
  if (typeof condition !== 'string' && typeof condition !== 'number') return undefined;
  let text = String(condition).trim();
  const wrapped = /^\$\{\{([\s\S]*)\}\}$/.exec(text);
  if (wrapped?.[1] !== undefined) text = wrapped[1];
  if (text.includes('${{')) return undefined;
  try {
    const parser = new Parser(tokens(text), matrix);
    const value = parser.or();
    if (!parser.done()) return undefined;
    return truthy(value);
  } catch (error) {
    if (error instanceof Unreadable) return undefined;
    throw error;
  }
}

function tokens(text: string): string[] {
  const found: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    if (!text.slice(TOKEN.lastIndex).trim()) break;
    const start = TOKEN.lastIndex;
    const match = TOKEN.exec(text);
    if (!match || TOKEN.lastIndex === start) throw new Unreadable();
    found.push(match[0].trim());
  }
  return found;
}

class Parser {
  private at = 0;

  constructor(
    private readonly items: string[],
    private readonly matrix: Readonly<Record<string, string>>,
  ) {}

  done(): boolean {
    return this.at === this.items.length;
  }

  private peek(): string | undefined {
    return this.items[this.at];
  }

  private take(expected?: string): string {
    const item = this.items[this.at];
    if (item === undefined || (expected !== undefined && item !== expected)) throw new Unreadable();
    this.at++;
    return item;
  }

  or(): Value {
    let left = this.and();
    while (this.peek() === '||') {
      this.take();
      const right = this.and();
      left = truthy(left) ? left : right;
    }
    return left;
  }

  private and(): Value {
    let left = this.equality();
    while (this.peek() === '&&') {
      this.take();
      const right = this.equality();
      left = truthy(left) ? right : left;
    }
    return left;
  }

  private equality(): Value {
    let left = this.comparison();
    for (let op = this.peek(); op === '==' || op === '!='; op = this.peek()) {
      this.take();
      const same = equal(left, this.comparison());
      left = op === '==' ? same : !same;
    }
    return left;
  }

  private comparison(): Value {
    let left = this.unary();
    for (let op = this.peek(); op === '<' || op === '<=' || op === '>' || op === '>='; op = this.peek()) {
      this.take();
      left = compare(left, this.unary(), op);
    }
    return left;
  }

  private unary(): Value {
    if (this.peek() === '!') {
      this.take();
      return !truthy(this.unary());
    }
    return this.primary();
  }

  private primary(): Value {
    const item = this.take();
    if (item === '(') {
      const value = this.or();
      this.take(')');
      return value;
    }
    if (item.startsWith("'")) return item.slice(1, -1).replace(/''/g, "'");
    if (/^(?:\d|0x)/i.test(item)) return Number(item);
    if (item === 'true' || item === 'false') return item === 'true';
    if (item === 'null') return null;
    if (this.peek() === '(') {
      this.take('(');
      this.take(')');
      // The steps before this one succeeded (a failed one stops the checks), and no one cancelled the run.
      if (item === 'success' || item === 'always') return true;
      if (item === 'failure' || item === 'cancelled') return false;
      throw new Unreadable();
    }
    const matrixKey = /^matrix\.([\w-]+)$/.exec(item)?.[1];
    if (matrixKey !== undefined) {
      const value = this.matrix[matrixKey];
      if (value === undefined) throw new Unreadable();
      return value;
    }
    if (item === 'runner.os') return 'Linux';
    throw new Unreadable();
  }
}

function truthy(value: Value): boolean {
  return !(value === false || value === null || value === '' || value === 0 || Number.isNaN(value));
}

/** GitHub's coercion: values of different types compare as numbers; strings compare ignoring case. */
function toNumber(value: Value): number {
  if (value === null) return 0;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return value;
  return value.trim() === '' ? 0 : Number(value);
}

function equal(left: Value, right: Value): boolean {
  if (typeof left === 'string' && typeof right === 'string') return left.toLowerCase() === right.toLowerCase();
  if (typeof left === typeof right) return left === right;
  return toNumber(left) === toNumber(right);
}

function compare(left: Value, right: Value, op: string): boolean {
  let order: number;
  if (typeof left === 'string' && typeof right === 'string') {
    const [a, b] = [left.toLowerCase(), right.toLowerCase()];
    order = a < b ? -1 : a > b ? 1 : 0;
  } else {
    const [a, b] = [toNumber(left), toNumber(right)];
    if (Number.isNaN(a) || Number.isNaN(b)) return false;
    order = a - b;
  }
  return op === '<' ? order < 0 : op === '<=' ? order <= 0 : op === '>' ? order > 0 : order >= 0;
}
