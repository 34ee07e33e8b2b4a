#!/usr/bin/env node
// The README's `$ ` examples, run as written against the built CLI with `ckpt` on the PATH. Each fenced block
// is one shell session started in a copy of the repository's test-fixtures/ (so an example never changes the
// checkout), as if in the repository root: a `cd` or a variable carries on to the block's next commands, and a
// block that needs another folder starts with `cd`. Every command must exit 0 or 1 (1: findings). The clock is
// fixed (CKPT_NOW=README_NOW), so "ago" columns and staleness print the same every day.
// The output shown under a command must be what it prints, give or take:
//   - a line that is only `…`: any number of lines left out here;
//   - a line ending in `…`: the printed line starts with what is shown.
// `--check` (pnpm readme:check, and apps/cli/test/readme.test.ts) reports differences; `--update`
// (pnpm readme:update) rewrites the shown output from what the commands print, keeping the elisions.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const repoRoot = join(import.meta.dirname, '..', '..', '..');
export const readmePath = join(repoRoot, 'README.md');
const ckptBin = join(repoRoot, 'apps', 'cli', 'bin', 'ckpt.js');
const ELIDED = '…';
/** The time the README's examples run at: an hour after the sample project's newest run was updated. */
export const README_NOW = '2026-11-29T09:00:00Z';

/**
 * Every `$ ` command in the README's fenced blocks, with the lines shown under it (up to the next command or the
 * end of the block; blank lines at the end belong to the layout, not the output).
 */
export function parseExamples(text) {
  const lines = text.split('\n');
  const examples = [];
  let fence = false;
  let block = 0;
  let current;
  const close = () => {
    if (!current) return;
    while (current.shown.length > 0 && current.shown.at(-1).trim() === '') current.shown.pop();
    current.end = current.start + 1 + current.shown.length;
    examples.push(current);
    current = undefined;
  };
  lines.forEach((line, i) => {
    if (line.startsWith('```')) {
      close();
      fence = !fence;
      block++;
      return;
    }
    if (!fence) return;
    if (line.startsWith('$ ')) {
      close();
      current = { block, line: i + 1, start: i, command: line.slice(2), shown: [] };
    } else if (current) current.shown.push(line);
  });
  return examples;
}

const MARK = '@@ckpt-readme-example-done@@';

/**
 * Runs a block's commands in one `sh` from the repository root, `ckpt` being the built CLI, and returns each
 * command's exit code, stdout lines and stderr. `env.TMPDIR` keeps what `mktemp` makes in a folder of ours.
 */
export function runBlock(commands, env, cwd = repoRoot) {
  const script = commands.map(
    (c) => `${c}\n__s=$?; printf '\\n${MARK}%s\\n' "$__s"; printf '${MARK}\\n' >&2\n`,
  );
  const r = spawnSync('sh', ['-c', script.join('')], { cwd, env, encoding: 'utf8', input: '' });
  const outs = r.stdout.split(new RegExp(`\\n${MARK}(\\d+)\\n`));
  const errs = r.stderr.split(`${MARK}\n`);
  return commands.map((_, k) => {
    const code = outs[2 * k + 1] === undefined ? -1 : Number(outs[2 * k + 1]);
    const stdout = (outs[2 * k] ?? '').replace(/\n$/, '');
    return { code, stdout: stdout === '' ? [] : stdout.split('\n'), stderr: errs[k] ?? '' };
  });
}

/** Every example with what its command printed, block by block, in a temporary folder removed afterwards. */
export function runExamples(text) {
  const bin = ckptOnPath();
  const env = { ...process.env, PATH: `${bin.dir}:${process.env.PATH}`, NO_COLOR: '1', TERM: 'dumb' };
  for (const k of [
    'GITHUB_ACTIONS',
    'GITHUB_STEP_SUMMARY',
    'FORCE_COLOR',
    'INIT_CWD',
    'CI',
    'OPENCODE_CONFIG_DIR',
  ])
    delete env[k];
  env.TMPDIR = join(bin.dir, 'tmp');
  env.CKPT_NOW = README_NOW;
  mkdirSync(env.TMPDIR);
  const root = join(bin.dir, 'repo');
  cpSync(join(repoRoot, 'test-fixtures'), join(root, 'test-fixtures'), { recursive: true });
  try {
    const blocks = new Map();
    for (const ex of parseExamples(text)) blocks.set(ex.block, [...(blocks.get(ex.block) ?? []), ex]);
    return [...blocks.values()].flatMap((examples) => {
      const results = runBlock(
        examples.map((ex) => ex.command),
        env,
        root,
      );
      return examples.map((ex, k) => ({ ex, r: results[k] }));
    });
  } finally {
    bin.remove();
  }
}

/** A folder holding a `ckpt` that runs this checkout's built CLI; `remove()` when done. */
export function ckptOnPath() {
  const dir = mkdtempSync(join(tmpdir(), 'ckpt-readme-bin-'));
  writeFileSync(join(dir, 'ckpt'), `#!/bin/sh\nexec "${process.execPath}" "${ckptBin}" "$@"\n`);
  chmodSync(join(dir, 'ckpt'), 0o755);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** What may differ between a shown line and a printed one: trailing spaces (times are fixed by CKPT_NOW). */
export function normalise(line) {
  return line.trimEnd();
}

/** Whether printed lines match shown lines, honouring `…` elisions. */
export function matches(shown, printed, i = 0, j = 0) {
  if (i === shown.length) return j === printed.length;
  const s = shown[i];
  if (s.trim() === ELIDED) {
    for (let k = j; k <= printed.length; k++) if (matches(shown, printed, i + 1, k)) return true;
    return false;
  }
  if (j === printed.length) return false;
  const p = normalise(printed[j]);
  const ok = s.endsWith(ELIDED) ? p.startsWith(normalise(s.slice(0, -ELIDED.length))) : p === normalise(s);
  return ok && matches(shown, printed, i + 1, j + 1);
}

/** The shown lines rewritten from printed ones, keeping one `…` line and `…`-cut lines where they were. */
export function updatedShown(shown, printed) {
  const gap = shown.findIndex((s) => s.trim() === ELIDED);
  const cut = (s, p) => (s.endsWith(ELIDED) ? `${p.slice(0, s.length - ELIDED.length)}${ELIDED}` : p);
  if (gap === -1) {
    if (shown.length === printed.length) return shown.map((s, k) => cut(s, printed[k]));
    return printed;
  }
  if (shown.slice(gap + 1).some((s) => s.trim() === ELIDED))
    throw new Error('an example may leave lines out (a `…` line) only once');
  const head = shown.slice(0, gap);
  const tail = shown.slice(gap + 1);
  if (head.length + tail.length > printed.length) return printed;
  return [
    ...head.map((s, k) => cut(s, printed[k])),
    shown[gap],
    ...tail.map((s, k) => cut(s, printed[printed.length - tail.length + k])),
  ];
}

/** Checks every example; returns the problems (empty when the README is right). */
export function checkReadme(text = readFileSync(readmePath, 'utf8')) {
  return runExamples(text).flatMap(({ ex, r }) => {
    const problems = [];
    if (r.code !== 0 && r.code !== 1)
      problems.push(
        r.code === -1
          ? 'never finished: an earlier command of its block ended the shell'
          : `exit ${r.code} (only 0 and 1 are expected)${r.stderr ? `; stderr:\n${r.stderr}` : ''}`,
      );
    else if (ex.shown.length > 0 && !matches(ex.shown, r.stdout))
      problems.push(
        `output differs (- README, + printed now):\n${diff(ex.shown, updatedShown(ex.shown, r.stdout))}` +
          (r.stderr ? `\nstderr (exit ${r.code}):\n${r.stderr}` : ''),
      );
    return problems.map((p) => `README.md:${ex.line}: $ ${ex.command}\n${p}`);
  });
}

/** Rewrites the README's shown output from what the commands print now. Returns how many examples changed. */
export function updateReadme() {
  const text = readFileSync(readmePath, 'utf8');
  const lines = text.split('\n');
  const runs = runExamples(text);
  const failed = runs.find(({ r }) => r.code !== 0 && r.code !== 1);
  if (failed)
    throw new Error(
      `README.md:${failed.ex.line}: $ ${failed.ex.command}\nexit ${failed.r.code}, nothing changed:\n${failed.r.stderr}`,
    );
  let changed = 0;
  // From the end, so earlier line numbers stay valid.
  for (const { ex, r } of runs.reverse()) {
    if (ex.shown.length === 0 || matches(ex.shown, r.stdout)) continue;
    lines.splice(ex.start + 1, ex.shown.length, ...updatedShown(ex.shown, r.stdout));
    changed++;
  }
  if (changed > 0) writeFileSync(readmePath, lines.join('\n'));
  return changed;
}

/** A line diff: `-` shown in the README, `+` printed now. */
function diff(shown, printed) {
  const out = [];
  const n = Math.max(shown.length, printed.length);
  for (let k = 0; k < n; k++) {
    const s = shown[k];
    const p = printed[k];
    if (s !== undefined && p !== undefined && normalise(s) === normalise(p)) out.push(`  ${s}`);
    else {
      if (s !== undefined) out.push(`- ${s}`);
      if (p !== undefined) out.push(`+ ${p}`);
    }
  }
  return out.join('\n');
}

export const HOW_TO_UPDATE =
  'The README shows output the commands no longer print. If the new output is right, run `pnpm build && pnpm readme:update` and commit README.md; otherwise fix the command or the code.';

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--update')) {
    const n = updateReadme();
    process.stderr.write(`README.md: ${n} example${n === 1 ? '' : 's'} updated\n`);
    const left = checkReadme();
    if (left.length > 0) {
      process.stderr.write(`${left.join('\n\n')}\n`);
      process.exitCode = 1;
    }
  } else {
    const problems = checkReadme();
    if (problems.length > 0) {
      process.stderr.write(`${problems.join('\n\n')}\n\n${HOW_TO_UPDATE}\n`);
      process.exitCode = 1;
    } else process.stderr.write('README.md: every `$ ` example prints what it shows\n');
  }
}
