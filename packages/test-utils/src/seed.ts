/**
 * fast-check settings for CI: a seed from FC_SEED (or a fresh one, printed so a failure can be replayed) and a
 * bounded number of runs from FC_NUM_RUNS.
 */
export function fcParams(defaultRuns = 100): { seed: number; numRuns: number; verbose: 0 | 1 } {
  const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : Math.floor(Math.random() * 2 ** 31);
  const numRuns = process.env.FC_NUM_RUNS ? Number(process.env.FC_NUM_RUNS) : defaultRuns;
  if (!printed.has(seed)) {
    printed.add(seed);
    console.log(`fast-check seed ${seed} (replay with FC_SEED=${seed})`);
  }
  return { seed, numRuns, verbose: 1 };
}
const printed = new Set<number>();
