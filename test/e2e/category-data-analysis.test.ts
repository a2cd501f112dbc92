import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolUseResponse } from '../fakes/anthropic-fake.js';
import { createE2eWorld, type E2eWorld } from './e2e-world.js';
import { mention, replyIn } from './category-helpers.js';

const CONFIG = `
channels:
  C0DATA: { repo: acme/data, baseBranch: main }
sandbox: { mode: bwrap }
`;

const SALES = 'region,amount\nnorth,100\nsouth,50.5\nnorth,20\neast,oops\n,10\nwest,30\n';

/** The scripted agent's analysis: standard library only (the sandbox may lack pandas), PNG written by hand. */
const SCRIPT = String.raw`"""Revenue per region from a sales CSV: validates the input, writes wrench-output/report.md and a bar chart."""
import csv, os, struct, sys, zlib

def read_rows(path):
    kept, dropped = [], []
    with open(path, newline='') as f:
        for row in csv.DictReader(f):
            try:
                region = row['region'].strip()
                amount = float(row['amount'])
                if not region:
                    raise ValueError('empty region')
                kept.append((region, amount))
            except (KeyError, ValueError, TypeError) as error:
                dropped.append((row, str(error)))
    return kept, dropped

def png(path, values, width=200, height=100):
    top = max(values) or 1
    bar = width // max(len(values), 1)
    rows = []
    for y in range(height):
        line = bytearray([0])
        for x in range(width):
            i = x // bar
            filled = i < len(values) and (height - y) <= values[i] / top * height and x % bar < bar - 4
            line += bytes([40, 90, 160] if filled else [255, 255, 255])
        rows.append(bytes(line))
    chunk = lambda kind, data: struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)
    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, 2, 0, 0, 0)) + chunk(b'IDAT', zlib.compress(b''.join(rows))) + chunk(b'IEND', b''))

def main(path='wrench-input/sales.csv', out='wrench-output'):
    kept, dropped = read_rows(path)
    totals = {}
    for region, amount in kept:
        totals[region] = totals.get(region, 0.0) + amount
    os.makedirs(out, exist_ok=True)
    ordered = sorted(totals.items(), key=lambda item: -item[1])
    lines = ['# Revenue per region', '', '| Region | Revenue | Share |', '|---|---:|---:|']
    total = sum(totals.values()) or 1
    for region, amount in ordered:
        lines.append(f'| {region} | {amount:.2f} | {amount / total:.0%} |')
    lines += ['', f'{len(kept)} rows used; {len(dropped)} dropped (invalid amount or region).', '', '![Revenue per region](revenue.png)']
    with open(os.path.join(out, 'report.md'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    png(os.path.join(out, 'revenue.png'), [amount for _, amount in ordered])
    print(f'wrote {out}/report.md and {out}/revenue.png')

if __name__ == '__main__':
    main(*sys.argv[1:])
`;

describe('data analysis with an attached file, end to end', () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'data', { 'README.md': '# Data\n' });
    await world.start();
  });

  afterAll(async () => {
    await world?.stop();
  });

  it('downloads the attachment into wrench-input/, uploads the report and chart to the thread, shows the main table inline and commits only the script', async () => {
    const { slack, anthropic, github } = world;
    anthropic.setScript([
      toolUseResponse([{ name: 'bash', input: { command: 'ls wrench-input && head -3 wrench-input/sales.csv' } }]),
      toolUseResponse([{ name: 'str_replace_based_edit_tool', input: { command: 'create', path: 'analysis/revenue.py', file_text: SCRIPT } }]),
      toolUseResponse([{ name: 'bash', input: { command: 'python3 analysis/revenue.py wrench-input/sales.csv && git status --short' } }]),
      toolUseResponse([
        {
          name: 'finish_task',
          input: {
            summary: 'Revenue per region: north leads with 120.00 (60%). Two invalid rows were dropped.',
            filesChanged: [{ path: 'analysis/revenue.py', change: 'the analysis script' }],
            verification: 'Ran python3 analysis/revenue.py wrench-input/sales.csv twice; same report.',
            openQuestions: [],
          },
        },
      ]),
    ]);

    const csv = slack.addFile({ name: 'sales.csv', content: SALES, mimetype: 'text/csv' });
    const ts = await mention(
      world,
      'C0DATA',
      'Analyse the attached sales.csv: compute revenue per region, write a report with a table and a bar chart. Put the script in analysis/.',
      [csv],
    );
    const { text } = await replyIn(world, ts, /\/pull\//);

    // The agent found the data and was told what it can compute with.
    const first = JSON.stringify(anthropic.requests[0]!.body);
    expect(first).toContain('wrench-input/sales.csv');
    expect(first).toMatch(/Available for the analysis: python3 3\.\d+/);
    expect(first).toContain('wrench-output/report.md');
    expect(JSON.stringify(anthropic.requests[1]!.body)).toContain('north,100');
    expect(slack.callsTo('file_download')).toHaveLength(1);

    // The main table inline, as an aligned code block.
    expect(text).toContain('*Main result*');
    expect(text).toMatch(/```\nRegion\s+Revenue\s+Share\n[- ]+\nnorth\s+120\.00\s+60%\nsouth\s+50\.50\s+25%\nwest\s+30\.00\s+15%\n```/);

    // The report and the chart uploaded into the thread with the external upload flow.
    await slack.waitFor((c) => c.method === 'files.completeUploadExternal' && c.args.thread_ts === ts, 10_000);
    const uploads = slack.uploads.filter((u) => u.thread_ts === ts);
    expect(uploads.map((u) => u.filename).sort()).toEqual(['report.md', 'revenue.png']);
    expect(uploads.find((u) => u.filename === 'report.md')!.text).toContain('| north | 120.00 | 60% |');
    expect(
      uploads
        .find((u) => u.filename === 'revenue.png')!
        .bytes.subarray(0, 8)
        .equals(Buffer.from('\x89PNG\r\n\x1a\n', 'latin1')),
    ).toBe(true);
    expect(slack.callsTo('files.getUploadURLExternal')).toHaveLength(2);

    // The script is in the pull request so it can be re-run; the data and the outputs are not.
    const pull = github.pulls('acme', 'data').at(-1)!;
    const files = execFileSync('git', ['--git-dir', github.gitDir('acme', 'data'), 'diff', '--name-only', `main...${pull.headRef}`], { encoding: 'utf8' })
      .trim()
      .split('\n');
    expect(files).toEqual(['analysis/revenue.py']);
    expect(pull.body).toContain('Main result');
  });
});
