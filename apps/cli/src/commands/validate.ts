import { appendFileSync, existsSync } from 'node:fs';
import { collectFiles, type FileResult, isDialectId, validateCollected } from '@ckpt/core';
import { type ColorMode, colorsFor } from '../output/color.js';
import { createProgress } from '../output/progress.js';
import { isatty } from '../output/tty.js';
import { stepSummary } from '../reporters/github.js';
import { reporters } from '../reporters/index.js';
import { type ReporterName, reporterNames } from '../reporters/reporter.js';
import { InputError, UsageError } from '../usage-error.js';
import { toolVersion } from '../version.js';
import { writePieces } from './validate-output.js';

export interface ValidateFlags {
  readonly reporter?: string;
  readonly dialect?: string;
  readonly strict?: boolean;
  readonly quiet?: boolean;
  readonly color?: string;
}

const GLOB = /[*?[\]{}]/;

async function expandPaths(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    if (!GLOB.test(p) || existsSync(p)) {
      out.push(p);
      continue;
    }
    const { glob } = await import('tinyglobby');
    const matches = await glob(p, {
      dot: true,
      ignore: ['**/node_modules/**', '**/.git/**'],
      onlyFiles: true,
    });
    if (matches.length === 0) throw new InputError(`no file matches ${p}`);
    out.push(...matches.sort());
  }
  return out;
}

/**
 * `CKPT_THREADS=<n>`: threads that check files and runs (1: this one alone, no worker), for a machine whose
 * `os.availableParallelism()` says more cores than the process may use, and for comparing. Anything else: default.
 */
function threadsFromEnv(): { pool?: { threads: number } } {
  const n = Number(process.env.CKPT_THREADS);
  return Number.isInteger(n) && n >= 1 ? { pool: { threads: n } } : {};
}

/** What the caller of `runValidate` may add to the run (bin/ckpt.js: V8's heap sizing for a large input). */
export interface ValidateHooks {
  /** See `ValidateOptions.onLargeInput` (@ckpt/core): told whether the input is brief, and on how many threads. */
  readonly onLargeInput?: (input: { readonly brief: boolean; readonly threads: number }) => void;
  /** See `ValidateOptions.onLongInput` (@ckpt/core). */
  readonly onLongInput?: () => void;
  /** See `PoolOptions.afterChunk` (@ckpt/core): called on this thread after each run (or chunk of files) it checked. */
  readonly afterChunk?: () => void;
}

/** `ckpt validate [paths...]`: exit 0 valid, 1 error findings, 2 usage error, 3 unreadable input. */
export async function runValidate(
  paths: readonly string[],
  flags: ValidateFlags,
  hooks: ValidateHooks = {},
): Promise<number> {
  const envReporter = process.env.GITHUB_ACTIONS === 'true' ? 'github' : 'text';
  const reporter = (flags.reporter ?? envReporter) as ReporterName;
  if (!reporterNames.includes(reporter)) {
    throw new UsageError(
      `unknown reporter "${flags.reporter}"; expected one of: ${reporterNames.join(', ')}`,
    );
  }
  if (flags.dialect !== undefined && !isDialectId(flags.dialect)) {
    throw new UsageError(
      `unknown dialect "${flags.dialect}"; expected one of: team, resumable, ulpi, agent-context`,
    );
  }
  const color = (flags.color ?? 'auto') as ColorMode;
  if (!['auto', 'always', 'never'].includes(color))
    throw new UsageError(`--color must be auto, always or never, got "${color}"`);
  const expanded = await expandPaths(paths.length > 0 ? paths : ['.']);
  const threads = threadsFromEnv();
  const collected = collectFiles(expanded, process.cwd(), { units: true });
  const { missing } = collected;
  if (missing.length > 0)
    throw new InputError(`cannot read ${missing.map((m) => `"${m}"`).join(', ')}: no such file or directory`);
  // isatty() rather than process.stderr/stdout.isTTY: those getters build the stream objects, which costs
  // startup time that one-file runs notice.
  const progress = createProgress('checking', !flags.quiet && reporter === 'text' && isatty(2));
  const report = validateCollected(collected, {
    strict: flags.strict ?? false,
    ...(flags.dialect ? { dialect: flags.dialect } : {}),
    onProgress: (d, t) => progress.update(d, t),
    ...(hooks.onLargeInput ? { onLargeInput: hooks.onLargeInput } : {}),
    ...(hooks.onLongInput ? { onLongInput: hooks.onLongInput } : {}),
    ...(hooks.afterChunk ? { pool: { ...threads.pool, afterChunk: hooks.afterChunk } } : threads),
  });
  const ctx = {
    // A getter: colorsFor asks only when neither --color nor NO_COLOR / FORCE_COLOR decides.
    colors: colorsFor(color, {
      get isTTY() {
        return isatty(1);
      },
    } as NodeJS.WriteStream),
    quiet: flags.quiet ?? false,
    toolVersion: toolVersion(),
  };
  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  // What the exit code and the step summary need of the results, taken as they go by: the report is written as
  // it is made (100k files: neither the results nor ~28 MB of text are ever held whole).
  let unreadable = false;
  const withFindings: FileResult[] = [];
  const files = function* () {
    for (const f of report.files) {
      if (f.findings.length > 0) {
        // io/*: unreadable, not a regular file, too large, a symlink loop: input that could not be read.
        if (!unreadable && f.findings.some((x) => x.code.startsWith('io/'))) unreadable = true;
        if (summaryFile) withFindings.push(f);
      }
      yield f;
    }
    progress.done();
  };
  writePieces(
    reporters[reporter](
      {
        formatVersion: report.formatVersion,
        files: files(),
        get summary() {
          return report.summary;
        },
      },
      ctx,
    ),
  );
  if (summaryFile) {
    try {
      appendFileSync(
        summaryFile,
        stepSummary({ formatVersion: report.formatVersion, files: withFindings, summary: report.summary }),
      );
    } catch (e) {
      process.stderr.write(
        `ckpt: cannot write the step summary to ${summaryFile}: ${(e as Error).message}\n`,
      );
    }
  }
  if (unreadable) return 3;
  return report.summary.errors > 0 ? 1 : 0;
}
