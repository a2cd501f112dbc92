/**
 * The PromQL expression of an Alertmanager alert, from its generatorURL
 * (Prometheus writes `<prometheus>/graph?g0.expr=<expr>&g0.tab=1`). Undefined when the URL carries none.
 */
export function alertExpression(generatorURL: string | null | undefined): string | undefined {
  if (!generatorURL) return undefined;
  let url: URL;
  try {
    url = new URL(generatorURL);
  } catch {
    return undefined;
  }
  const expression = url.searchParams.get('g0.expr')?.trim();
  return expression ? expression : undefined;
}

/**
 * The distinct expressions of the alerts' generator URLs, wherever the alert carries them: Alertmanager's
 * PagerDuty integration puts "Source: <generatorURL>" in the alert's details (the firing text), and links
 * may carry it too. At most `max`.
 */
export function alertExpressions(alerts: readonly unknown[], max = 3): string[] {
  const found: string[] = [];
  const text = JSON.stringify(alerts ?? []);
  for (const match of text.matchAll(/https?:\/\/[^\s"'<>\\]+/g)) {
    const expression = alertExpression(match[0]);
    if (expression && !found.includes(expression)) found.push(expression);
    if (found.length >= max) break;
  }
  return found;
}

/**
 * The expression without its top-level threshold ("… > 0.05"), so the series is read before it fired too.
 * Only a trailing comparison with a number is removed; anything else is left as it is.
 */
export function withoutThreshold(expression: string): string {
  const rest = /^(.*?)\s*(?:>=|<=|==|!=|>|<)\s*(?:bool\s+)?[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?\s*$/is.exec(expression)?.[1];
  if (rest === undefined) return expression;
  let depth = 0;
  for (const char of rest) {
    if (char === '(') depth++;
    else if (char === ')') depth--;
    if (depth < 0) return expression;
  }
  return depth === 0 && rest.trim() ? rest.trim() : expression;
}
