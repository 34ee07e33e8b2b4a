import type { Finding } from '../../findings/finding.js';
import type { RunView } from '../run-view.js';

/** What happened, as a filterable word. */
export const HISTORY_KINDS = [
  'created',
  'started',
  'finished',
  'failed',
  'retried',
  'blocked',
  'approved',
  'lock',
  'check',
  'phase',
  'iteration',
  'decision',
  'updated',
  'finding',
  'resolved',
  'log',
] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

/** One event of a run's history, with the file and line it was read from (the viewer links there). */
export interface HistoryEntry {
  /** ISO time; absent when the file records none (such entries follow the timed ones, in file order). */
  readonly at?: string;
  readonly kind: HistoryKind;
  /** The units (tasks, units, stages) the entry belongs to; empty for the run as a whole. */
  readonly units: readonly string[];
  /** One line, for a person. */
  readonly text: string;
  /** Project-relative path of a source file of the run. */
  readonly file: string;
  /** 1-based line in that file. */
  readonly line: number;
}

/** Reads a source file of a run by its project-relative path; undefined when it cannot be read. */
export type ReadSource = (path: string) => string | undefined;

/**
 * A dialect's history builder: the run's facts, its files by path. Pure apart from `read`. Given `unit`, it may
 * leave out (and not read) what belongs to other units only.
 */
export type HistoryBuilder = (run: RunView, read: ReadSource, unit?: string) => HistoryEntry[];

/** An entry, with `at` left out when unknown. */
export function entry(
  kind: HistoryKind,
  at: string | undefined,
  units: readonly string[],
  text: string,
  file: string,
  line: number,
): HistoryEntry {
  return { ...(at ? { at } : {}), kind, units, text: oneLine(text), file, line: Math.max(1, line) };
}

/** Collapses whitespace and caps the length: an entry is one line. */
export function oneLine(s: string, max = 240): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** A finding as an entry; `at` is the time of the event its file records, when known. */
export function findingEntry(f: Finding, units: readonly string[], at?: string): HistoryEntry {
  return entry('finding', at, units, `${f.severity} ${f.code}: ${f.message}`, f.file, f.line);
}
