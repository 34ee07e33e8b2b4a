import type fc from 'fast-check';
import { setUlpiUnit } from '../../../../src/dialects/ulpi/write.js';
import { expectRefused, readDoc, type UlpiModel, type UlpiReal } from '../model.js';

/** `unit <id> <status>`: sets a unit; a done unit is never demoted (refused, file unchanged). */
export class UnitCommand implements fc.Command<UlpiModel, UlpiReal> {
  constructor(
    readonly unit: string,
    readonly status: string,
  ) {}

  check(m: Readonly<UlpiModel>): boolean {
    return m.status === 'running';
  }

  run(m: UlpiModel, r: UlpiReal): void {
    if (m.units.get(this.unit) === 'done' && this.status !== 'done') {
      expectRefused(r, () => setUlpiUnit(r.file, this.unit, this.status));
      return;
    }
    setUlpiUnit(r.file, this.unit, this.status);
    m.units.set(this.unit, this.status);
    const doc = readDoc(r);
    if (doc.units[this.unit].status !== this.status)
      throw new Error(`unit ${this.unit} is ${doc.units[this.unit].status}`);
    if (JSON.stringify(Object.keys(doc.units)) !== JSON.stringify([...m.units.keys()]))
      throw new Error('unit order changed');
  }

  toString(): string {
    return `unit ${this.unit} ${this.status}`;
  }
}
