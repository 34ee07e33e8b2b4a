/** Thrown by a faulty file system at the injected step: the simulated process dies there. */
export class CrashError extends Error {
  constructor(
    readonly step: number,
    readonly op: string,
  ) {
    super(`injected crash at step ${step} (${op})`);
  }
}

const MUTATING = [
  'openSync',
  'writeSync',
  'fsyncSync',
  'closeSync',
  'renameSync',
  'linkSync',
  'unlinkSync',
  'mkdirSync',
  'rmdirSync',
  'ftruncateSync',
] as const;

export type FaultyFileSystem<FS extends object> = FS & {
  /** Mutating calls made so far. */
  readonly steps: number;
  /** True once the injected crash happened (every later call throws too). */
  readonly crashed: boolean;
  readonly log: readonly string[];
};

/**
 * Wraps a file system and, at the `failAt`-th mutating call (1-based), either crashes (that call and every later
 * call throw CrashError, as if the process died) or fails once with an I/O error (`mode: 'error'`, e.g. ENOSPC).
 * With no `failAt` it only counts steps, so a test can learn how many crash points an operation has.
 */
export function faultyFileSystem<FS extends object>(
  base: FS,
  opts: { failAt?: number; mode?: 'crash' | 'error'; errno?: string } = {},
): FaultyFileSystem<FS> {
  let steps = 0;
  let crashed = false;
  const log: string[] = [];
  const fs = { ...base } as Record<string, unknown>;
  for (const op of MUTATING) {
    const real = (base as unknown as Record<string, (...a: unknown[]) => unknown>)[op]?.bind(base);
    if (!real) continue;
    fs[op] = (...args: unknown[]) => {
      if (crashed) throw new CrashError(steps, op);
      steps++;
      log.push(`${op} ${typeof args[0] === 'string' ? args[0] : ''}`.trim());
      if (opts.failAt === steps) {
        if ((opts.mode ?? 'crash') === 'crash') {
          crashed = true;
          throw new CrashError(steps, op);
        }
        const e = new Error(`${opts.errno ?? 'EIO'}: injected failure, ${op}`) as NodeJS.ErrnoException;
        e.code = opts.errno ?? 'EIO';
        throw e;
      }
      return real(...args);
    };
  }
  for (const op of ['readFileSync', 'readdirSync', 'statSync', 'existsSync'] as const) {
    const real = (base as unknown as Record<string, (...a: unknown[]) => unknown>)[op]?.bind(base);
    if (!real) continue;
    fs[op] = (...args: unknown[]) => {
      if (crashed) throw new CrashError(steps, op);
      return real(...args);
    };
  }
  return Object.defineProperties(fs, {
    steps: { get: () => steps },
    crashed: { get: () => crashed },
    log: { get: () => log },
  }) as unknown as FaultyFileSystem<FS>;
}
