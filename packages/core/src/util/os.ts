import { createRequire } from 'node:module';

// node:os is a module Node does not load for itself (~0.5 ms): a one-file `ckpt validate` asks it nothing, so it
// is loaded on first use only (a static import anywhere in the CLI's validate bundle loads it in every run).
type Os = typeof import('node:os');
let os: Os | undefined;
const load = (): Os => {
  os ??= createRequire(import.meta.url)('node:os') as Os;
  return os;
};

/** `availableParallelism` from node:os, loaded on first use. */
export function availableParallelism(): number {
  return load().availableParallelism();
}

/** `hostname` from node:os, loaded on first use. */
export function hostname(): string {
  return load().hostname();
}

/** The (positive) number of an errno name (`EISDIR`) on this platform, from node:os, loaded on first use. */
export function errnoNumber(name: keyof Os['constants']['errno']): number {
  return load().constants.errno[name];
}
