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
