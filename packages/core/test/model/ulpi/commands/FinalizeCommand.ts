import type fc from 'fast-check';
import { finalizeUlpiRun } from '../../../../src/dialects/ulpi/write-run.js';
import { expectRefused, readDoc, type UlpiModel, type UlpiReal } from '../model.js';

/** `finalize <status>`: `done` fails closed while a unit is not done; the others always apply. */
export class FinalizeCommand implements fc.Command<UlpiModel, UlpiReal> {
  constructor(readonly status: 'done' | 'needs_attention' | 'aborted') {}

  check(m: Readonly<UlpiModel>): boolean {
    return m.status === 'running';
  }

  run(m: UlpiModel, r: UlpiReal): void {
    const open = [...m.units.values()].some((s) => s !== 'done');
    if (this.status === 'done' && open) {
      expectRefused(r, () => finalizeUlpiRun(r.file, 'done'));
      return;
    }
    finalizeUlpiRun(r.file, this.status);
    m.status = this.status;
    const doc = readDoc(r);
    if (doc.status !== this.status || typeof doc.finishedAt !== 'string')
      throw new Error(`run is ${doc.status}`);
  }

  toString(): string {
    return `finalize ${this.status}`;
  }
}
