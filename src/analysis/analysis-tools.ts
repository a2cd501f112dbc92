import type { Sandbox } from '../sandbox/sandbox.js';

const PYTHON_MODULES = ['pandas', 'numpy', 'matplotlib', 'scipy', 'seaborn', 'openpyxl'];

const PROBE = [
  `python3 -c "import sys, importlib.util as u; print('python', sys.version.split()[0]); print('modules', *[m for m in ${JSON.stringify(PYTHON_MODULES).replace(/"/g, "'")} if u.find_spec(m)])" 2>/dev/null`,
  'command -v node >/dev/null && echo "node $(node --version)"',
  'command -v Rscript >/dev/null && echo "R yes"',
  'true',
].join('; ');

export interface AnalysisTools {
  python?: string;
  pythonModules: string[];
  node?: string;
  r: boolean;
}

/** What a data-analysis script can use in the sandbox, found with one cheap command (no imports run). */
export async function probeAnalysisTools(sandbox: Sandbox, cwd: string, signal?: AbortSignal): Promise<AnalysisTools> {
  const result = await sandbox.exec(PROBE, { cwd, timeoutMs: 15_000, signal, network: false }).catch(() => undefined);
  return parseProbe(result?.output ?? '');
}

export function parseProbe(output: string): AnalysisTools {
  const line = (prefix: string) =>
    output
      .split('\n')
      .find((l) => l.startsWith(`${prefix} `))
      ?.slice(prefix.length + 1)
      .trim();
  return {
    python: line('python'),
    pythonModules: (line('modules') ?? '').split(/\s+/).filter(Boolean),
    node: line('node'),
    r: line('R') === 'yes',
  };
}

/** The environment note for the agent: what is installed, and that nothing else can be installed offline. */
export function describeAnalysisTools(tools: AnalysisTools, network: boolean): string {
  const parts: string[] = [];
  if (tools.python) {
    parts.push(
      `python3 ${tools.python}${tools.pythonModules.length ? ` with ${tools.pythonModules.join(', ')}` : ' (standard library only: no pandas or matplotlib)'}`,
    );
  } else parts.push('no python3');
  if (tools.node) parts.push(`node ${tools.node}`);
  if (tools.r) parts.push('R (Rscript)');
  const charts = tools.pythonModules.includes('matplotlib')
    ? 'Draw charts with matplotlib (use the Agg backend: `matplotlib.use("Agg")`).'
    : 'matplotlib is not available: write charts as PNG another way, or say in the report that charts could not be drawn.';
  const install = network ? '' : ' There is no network, so nothing else can be installed.';
  return `Available for the analysis: ${parts.join('; ')}. ${charts}${install}`;
}
