export {
  HISTORY_KINDS,
  type HistoryEntry,
  type HistoryKind,
  type ReadSource,
} from './entry.js';
export {
  filterHistory,
  type HistoryDocument,
  type HistoryOptions,
  isHistoryKind,
  runHistory,
  sortHistory,
  unitSpans,
} from './history.js';
export { HISTORY_READ_LIMIT, projectReader } from './read.js';
export { runTimeline, type TimelineDocument, type TimelineRow } from './timeline.js';
