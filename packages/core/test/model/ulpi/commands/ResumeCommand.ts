import type fc from 'fast-check';
import { ulpiResumeSet } from '../../../../src/dialects/ulpi/resume.js';
import { readUlpiRun } from '../../../../src/dialects/ulpi/write-run.js';
import { readBytes, type UlpiModel, type UlpiReal } from '../model.js';

/** `resume` (a read): done units are skipped, every other unit (no dependencies here) is eligible; nothing is written. */
export class ResumeCommand implements fc.Command<UlpiModel, UlpiReal> {
  check(): boolean {
    return true;
  }

  run(m: UlpiModel, r: UlpiReal): void {
    const before = readBytes(r);
    const set = ulpiResumeSet(readUlpiRun(r.file));
    const skip = [...m.units].filter(([, s]) => s === 'done').map(([id]) => id);
    const eligible = [...m.units].filter(([, s]) => s !== 'done').map(([id]) => id);
    if (JSON.stringify(set.skip) !== JSON.stringify(skip))
      throw new Error(`skip ${JSON.stringify(set.skip)}, expected ${JSON.stringify(skip)}`);
    if (JSON.stringify(set.eligible) !== JSON.stringify(eligible))
      throw new Error(`eligible ${JSON.stringify(set.eligible)}`);
    if (!readBytes(r).equals(before)) throw new Error('a read changed the file');
  }

  toString(): string {
    return 'resume';
  }
}
