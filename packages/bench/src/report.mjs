// Formats the results as Markdown and records them in BENCHMARKS.md, between two markers, so the rest of the
// file (the method, and sections other benchmarks append) stays as written.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { cpuMeasured } from './time.mjs';

const START = '<!-- bench:results:start (written by `pnpm bench`; edit outside these markers) -->';
const END = '<!-- bench:results:end -->';

const sh = (cmd, args) => {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
};

/** The machine, as `nproc`, `free -h` and `node --version` show it. */
export function machine() {
  return {
    nproc: sh('nproc', []),
    free: sh('free', ['-h']),
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    load: loadavg()
      .map((x) => x.toFixed(2))
      .join(' '),
    date: new Date().toISOString(),
  };
}

const ms = (x) => (Number.isNaN(x) ? '–' : x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(0)} ms`);
const ratio = (a, b) => (Number.isNaN(a) || Number.isNaN(b) || b === 0 ? '–' : `${(a / b).toFixed(2)}×`);

function sizeTable(rows, size) {
  const floor = rows.find((r) => r.suite === 'floor');
  const node0 = rows.find((r) => r.suite === 'node-e0');
  const files = rows[0].files;
  const lines = [
    `### ${size === 1 ? 'One file' : `${files.toLocaleString('en-US')} files`}`,
    '',
    '| suite | wall (median) | min – max | × floor | × `node -e 0` | CPU (median) | CPU × floor | max RSS |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows) {
    if (r.failed) {
      lines.push(`| ${r.label} | failed | | | | | | |`);
      continue;
    }
    lines.push(
      `| ${r.label} | ${ms(r.wall)} | ${ms(r.min)} – ${ms(r.max)} | ${ratio(r.wall, floor?.wall)} | ${ratio(r.wall, node0?.wall)} | ${ms(r.cpu)} | ${ratio(r.cpu, floor?.cpu)} | ${Number.isNaN(r.rss) ? '–' : `${r.rss.toFixed(0)} MB`} |`,
    );
  }
  return lines.join('\n');
}

/** The targets of issue 13, each as met / NOT met from ratios of this run. */
function targets(results) {
  const get = (size, suite) => results.find((r) => r.size === size && r.suite === suite && !r.failed);
  const verdict = (ok) => (ok ? 'met' : 'NOT met');
  const out = [];
  for (const size of [...new Set(results.map((r) => r.size))].filter((s) => s >= 10_000)) {
    const c = get(size, 'ckpt');
    const f = get(size, 'floor');
    if (!c || !f) continue;
    const x = c.wall / f.wall;
    const rss = c.rss / f.rss;
    const peers = ['ajv', 'sourcemeta', 'sourcemeta-native']
      .map((p) => get(size, p))
      .filter(Boolean)
      .map((p) => `${p.label} ${(c.wall / p.wall).toFixed(2)}× its time: ${verdict(c.wall < p.wall)}`);
    out.push(
      `- ${size.toLocaleString('en-US')} files: ckpt = **${x.toFixed(2)}× the floor** (target ≤ 1.30×, aim ≤ 1.00×): ` +
        `${verdict(x <= 1.3)} (CPU time: ${(c.cpu / f.cpu).toFixed(2)}×); peak RSS ${rss.toFixed(2)}× the floor's ` +
        `(target ≤ 1.50×): ${verdict(rss <= 1.5)}; faster than each peer: ${peers.join('; ') || 'no peer run'}.`,
    );
  }
  const c1 = get(1, 'ckpt');
  const n1 = get(1, 'node-e0');
  const s1 = get(1, 'sourcemeta');
  if (c1 && n1) {
    const x = c1.wall / n1.wall;
    out.push(
      `- One file: ckpt = **${x.toFixed(2)}× \`node -e 0\`** (target ≤ 1.30×): ${verdict(x <= 1.3)}` +
        (s1
          ? `; ${(c1.wall / s1.wall).toFixed(2)}× sourcemeta's npm bin (target ≤ 1.00×): ${verdict(c1.wall <= s1.wall)}.`
          : '.'),
    );
  }
  return out.join('\n');
}

/** Builds the Markdown section; writes it into `opts.out` when given. Returns the section. */
export function writeReport(results, opts) {
  const sizes = [...new Set(results.map((r) => r.size))];
  const reps = Math.min(...results.filter((r) => !r.failed).map((r) => r.reps));
  const commands = [...new Map(results.map((r) => [r.suite, `- ${r.label}: \`${r.command}\``])).values()];
  const section = [
    START,
    '## Latest results',
    '',
    `Command: \`${opts.command}\` (${opts.seconds.toFixed(0)} s in all). Commit ${opts.env.git}, ${opts.env.date}.`,
    `ckpt's validate fast path during the run: ${opts.fastPath ?? 'unknown'}.`,
    `Machine: ${opts.env.cpu}; \`nproc\` = ${opts.env.nproc}; Node ${opts.env.node}; load average at start ${opts.env.load}.`,
    '',
    '```',
    '$ free -h',
    opts.env.free,
    '```',
    '',
    `Medians of ${reps}+ interleaved repetitions after one untimed warm-up pass (warm page cache).` +
      (cpuMeasured ? ' CPU = user + system time from GNU time.' : ' (GNU time missing: no CPU column.)'),
    '',
    targets(results),
    '',
    ...sizes.flatMap((s) => [
      sizeTable(
        results.filter((r) => r.size === s),
        s,
      ),
      '',
    ]),
    'Commands:',
    '',
    ...commands,
    END,
  ].join('\n');
  if (opts.out) {
    const before = existsSync(opts.out) ? readFileSync(opts.out, 'utf8') : '# Benchmarks\n\n';
    const a = before.indexOf(START);
    const b = before.indexOf(END);
    const next =
      a >= 0 && b > a
        ? before.slice(0, a) + section + before.slice(b + END.length)
        : `${before.trimEnd()}\n\n${section}\n`;
    writeFileSync(opts.out, next);
    process.stderr.write(`recorded in ${opts.out}\n`);
  }
  return `${section}\n`;
}
