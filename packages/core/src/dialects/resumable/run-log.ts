/** run.log: `[<UTC ISO>] <message>` lines, and the summary blocks finalization appends under a RUN_ID marker. */

export interface LogLine {
  readonly line: number;
  readonly at: string | undefined;
  readonly message: string;
  /** The RUN_ID of a summary marker line. */
  readonly summaryRunId?: string;
  readonly wellFormed: boolean;
}

const LINE = /^\[([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?Z)\] (.*)$/;
// The skill asks for a human-readable timeline and names no line format; people write the time bracketed or not,
// with a space or a T, as `date -u +%Y%m%dT%H%M%SZ` prints it, with an offset or none (read as UTC).
const STAMP =
  '([0-9]{4})-?([0-9]{2})-?([0-9]{2})[T ]([0-9]{2}):?([0-9]{2}):?([0-9]{2})(\\.[0-9]+)?(Z| ?UTC|[+-][0-9]{2}:?[0-9]{2})?';
const LOOSE = [new RegExp(`^\\[${STAMP}\\]\\s*(.*)$`), new RegExp(`^${STAMP}(?:\\s+(?:[-|:]\\s+)?|$)(.*)$`)];

/** A line's time and message, the time as `YYYY-MM-DDTHH:MM:SS(.f)Z`; undefined when the line starts with none. */
function stamped(raw: string): { at: string; message: string } | undefined {
  const m = LINE.exec(raw);
  if (m) return Number.isNaN(Date.parse(m[1]!)) ? undefined : { at: m[1]!, message: m[2]! };
  const l = LOOSE.map((re) => re.exec(raw)).find((x) => x !== null);
  if (!l) return undefined;
  const [, y, mo, d, h, mi, sec, frac = '', zone = 'Z', message = ''] = l;
  const local = `${y}-${mo}-${d}T${h}:${mi}:${sec}${frac}`;
  const offset = /^[+-]/.test(zone) ? zone.replace(/^([+-][0-9]{2}):?([0-9]{2})$/, '$1:$2') : 'Z';
  const t = new Date(`${local}${offset}`);
  if (Number.isNaN(t.getTime())) return undefined;
  const iso = offset === 'Z' ? `${local}Z` : t.toISOString().replace(/\.000Z$/, 'Z');
  return { at: iso, message };
}

const MARKER = /=== RUN SUMMARY RUN_ID=([^\s=]+) ===/;

/** The marker line text of a run's summary block. */
export function summaryMarker(runId: string): string {
  return `=== RUN SUMMARY RUN_ID=${runId} ===`;
}

/** Parses run.log. Never throws; a line that does not fit is kept with `wellFormed: false`. */
export function parseRunLog(text: string): LogLine[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((raw, i) => {
    const m = stamped(raw.replace(/\r$/, ''));
    const message = m ? m.message : raw;
    const marker = MARKER.exec(message);
    return {
      line: i + 1,
      at: m?.at,
      message,
      wellFormed: m !== undefined,
      ...(marker ? { summaryRunId: marker[1]! } : {}),
    };
  });
}

/** The lines that start a summary block for a run id. */
export function summaryLines(lines: readonly LogLine[], runId: string): LogLine[] {
  return lines.filter((l) => l.summaryRunId === runId);
}

/** `[<time>] <message>\n`, the message made one line (a log line never spans lines). */
export function formatLogLine(at: Date, message: string): string {
  const time = at.toISOString().replace(/\.[0-9]+Z$/, 'Z');
  return `[${time}] ${message.replace(/[\r\n]+/g, ' ')}\n`;
}
