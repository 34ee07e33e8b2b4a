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
    const m = LINE.exec(raw);
    const message = m ? m[2]! : raw;
    const marker = MARKER.exec(message);
    return {
      line: i + 1,
      at: m?.[1],
      message,
      wellFormed: m !== null,
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
