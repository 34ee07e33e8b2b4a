import type { Location } from '../findings/finding.js';

/** Maps JSON Pointers in a parsed document back to lines and columns in its file. */
export interface SourceMap {
  /** The location of the value at `pointer` (or of its key), falling back to the nearest ancestor that exists. */
  locate(pointer: string, part?: 'value' | 'key'): Location;
}
