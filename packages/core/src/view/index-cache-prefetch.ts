import { type CheckOptions, checkEntry, formatOf, pickEntry } from '../check/check-document.js';
import { documentOf, type SentRecord, withRef } from '../check/records.js';
import type { CheckedDocument } from '../dialects/dialect.js';
import type { Finding } from '../findings/finding.js';
import { type PoolOptions, type PoolTask, poolChunks, poolThreads } from '../pool/pool.js';
import { displayUnder } from './display.js';

const NONE: readonly Finding[] = Object.freeze([]);

/** The documents to read ahead, flat (one string per column) so that it is cheap to copy to a worker. */
export interface PrefetchInput {
  /** Absolute paths, one per line. */
  readonly paths: string;
  /** The directory paths are shown relative to (`displayUnder`): each thread makes the display paths itself. */
  readonly displayDir: string;
  readonly confineTo: string | undefined;
  /** One character per path: `1` when the directory listing saw a regular file there (no fstat needed). */
  readonly regular: string;
}

/**
 * Reads, parses and checks documents as the project index's context would (`checkDocument` with `sniff`), and
 * sends each whole but for its text and source map: positions are found again from the file when a rule places
 * a finding (`documentOf`). For the team dialect only, whose loaders read values and findings, never texts. Not
 * its paths either: the receiver has them (`withRef`).
 */
export const viewDocumentsTask: PoolTask<PrefetchInput, SentRecord> = {
  name: 'view-documents',
  start(input) {
    const paths = input.paths.split('\n');
    const display = displayUnder(input.displayDir);
    const opts: CheckOptions = {
      sniff: true,
      ...(input.confineTo !== undefined ? { confineTo: input.confineTo } : {}),
    };
    const listed: CheckOptions = { ...opts, listedAsFile: true };
    return (from, to) => {
      const out: SentRecord[] = [];
      for (let i = from; i < to; i++) {
        const path = paths[i]!;
        const file = display(path);
        const how = input.regular[i] === '1' ? listed : opts;
        const entry = pickEntry(path, how);
        const doc = checkEntry(path, file, how, entry);
        out.push({
          kind: doc?.kind,
          text: undefined,
          value: doc?.value,
          usable: doc?.usable ?? false,
          findings: doc?.findings ?? [],
          remap: doc?.sourceMap ? formatOf(path, entry) : undefined,
        });
      }
      return out;
    };
  },
};

/**
 * Reads `paths` ahead on the worker pool when there are enough of them to pay for it; undefined otherwise (the
 * loader then reads each document itself, on this thread). Paths show relative to `displayDir` (`displayUnder`).
 * `listedAsFile[i]`: the directory listing saw a regular file at `paths[i]` (its read skips an fstat;
 * fs/read-checkpoint.ts). Each document is also put `into` the map (by path) as its chunk comes in.
 *
 * What this thread does before the workers can start is kept short (they wait for it): the display paths are not
 * made and joined here but by each thread for the documents it reads (and here as each chunk comes in).
 */
export function prefetchDocuments(
  paths: readonly string[],
  displayDir: string,
  confineTo: string | undefined,
  pool: PoolOptions = {},
  listedAsFile: readonly boolean[] = [],
  into?: Map<string, CheckedDocument>,
): CheckedDocument[] | undefined {
  if (poolThreads(paths.length, pool) <= 1 || paths.some((p) => p.includes('\n'))) return undefined;
  const input: PrefetchInput = {
    paths: paths.join('\n'),
    displayDir,
    confineTo,
    regular: paths.map((_, i) => (listedAsFile[i] ? '1' : '0')).join(''),
  };
  const display = displayUnder(displayDir);
  // Each chunk is taken in as it comes, while the workers read on.
  const out: CheckedDocument[] = [];
  for (const chunk of poolChunks(viewDocumentsTask, input, paths.length, pool))
    for (const rec of chunk) {
      // Most documents have no finding: they share one empty list instead of one copied each.
      if (rec.findings.length === 0) (rec as { findings: readonly Finding[] }).findings = NONE;
      const path = paths[out.length]!;
      const doc = documentOf(withRef(rec, { path, file: display(path) }));
      out.push(doc);
      into?.set(path, doc);
    }
  return out;
}
