import { basename, dirname, sep } from 'node:path';
import { documentFinding } from '../../findings/document-finding.js';
import { type Finding, findingAt } from '../../findings/finding.js';
import { SHORTEST_SECRET } from '../../text/secrets.js';
import type { CheckedDocument } from '../dialect.js';
import { type TeamCode, teamCodes } from './codes.js';
import { charLength, LIMITS, pathProblem, secretIn } from './guards.js';
import { eventFileNameIs, fileNameOf, parseApprovalFileName, parseEventFileName } from './names.js';
import { isTerminalStatus } from './records.js';

/** A team finding at a pointer of a document (its value's line and column). */
export function teamFinding(
  doc: Pick<CheckedDocument, 'file' | 'sourceMap'>,
  pointer: string,
  code: TeamCode,
  message: string,
  hint?: string,
): Finding {
  return documentFinding(teamCodes, doc, pointer, code, message, hint);
}

/** A team finding on a whole file that is not JSON (`current`, a temp file, a directory). */
export function fileFinding(file: string, code: TeamCode, message: string, hint?: string): Finding {
  return findingAt(
    file,
    { line: 1, column: 1 },
    { code, severity: teamCodes[code].severity, message, ...(hint ? { hint } : {}) },
  );
}

const obj = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

type TextField = 'evidence' | 'next' | 'note' | 'reason';
type NameField = 'task_id' | 'stage' | 'agent' | 'profile' | 'by';

/** A free-text value's finding (secret first, else length), if any, into `out`. */
function textFinding(
  doc: CheckedDocument,
  field: TextField | NameField,
  limit: number,
  t: unknown,
  out: Finding[],
): void {
  // Shorter than any secret, and within the limit in UTF-16 units (so in code points): most values need no test.
  if (typeof t !== 'string' || (t.length < SHORTEST_SECRET && t.length <= limit)) return;
  const secret = secretIn(t);
  if (secret)
    out.push(
      teamFinding(
        doc,
        `/${field}`,
        'team/secret-in-text',
        `${field} looks like it holds a secret (${secret})`,
      ),
    );
  else if (t.length > limit && charLength(t) > limit)
    out.push(
      teamFinding(
        doc,
        `/${field}`,
        'team/value-too-long',
        `${field} is ${charLength(t)} characters long; the limit is ${limit}`,
      ),
    );
}

/** The findings of the name fields (task_id, stage, agent, profile, by), in that order, into `out`. */
function nameFindings(doc: CheckedDocument, v: Record<string, unknown>, out: Finding[]): void {
  textFinding(doc, 'task_id', LIMITS.name, v.task_id, out);
  textFinding(doc, 'stage', LIMITS.name, v.stage, out);
  textFinding(doc, 'agent', LIMITS.name, v.agent, out);
  textFinding(doc, 'profile', LIMITS.name, v.profile, out);
  textFinding(doc, 'by', LIMITS.name, v.by, out);
}

/** A project-relative path's finding, if any, into `out`. */
function pathFinding(doc: CheckedDocument, pointer: string, value: unknown, out: Finding[]): void {
  if (typeof value !== 'string') return;
  const problem = pathProblem(value);
  if (!problem) return;
  const code: TeamCode = problem.includes('longer') ? 'team/value-too-long' : 'team/path-outside-project';
  out.push(teamFinding(doc, pointer, code, `${JSON.stringify(value.slice(0, 80))}: ${problem}`));
}

function pathListFindings(doc: CheckedDocument, key: 'inputs' | 'artifacts', list: unknown, out: Finding[]) {
  if (!Array.isArray(list)) return;
  for (let i = 0; i < list.length; i++) {
    const p = list[i];
    // Pointers are built only for a path that has a problem (pathFinding builds it then).
    if (typeof p === 'string' && pathProblem(p)) pathFinding(doc, `/${key}/${i}`, p, out);
  }
}

/**
 * The name of the directory two levels above a file: `<run>` of `<run>/events/<file>` (what
 * `basename(dirname(dirname(path)))` gives), sliced when the path is plain (POSIX, no empty segment).
 */
function grandparentName(path: string): string {
  if (sep === '/') {
    const f = path.lastIndexOf('/');
    const s = f > 0 ? path.lastIndexOf('/', f - 1) : -1;
    const r = s > 0 ? path.lastIndexOf('/', s - 1) : -1;
    if (r >= 0 && f < path.length - 1 && f - s > 1 && s - r > 1) return path.slice(r + 1, s);
  }
  return basename(dirname(dirname(path)));
}

function checkEvent(doc: CheckedDocument, v: Record<string, unknown>): Finding[] {
  const out: Finding[] = [];
  const event = v.event;
  const attempt = v.attempt;
  if (event === 'task_started' && isTerminalStatus(v.status))
    out.push(
      teamFinding(
        doc,
        '/status',
        'team/started-status-not-running',
        `task_started has status "${v.status}"; expected "running"`,
      ),
    );
  if (event === 'task_finished' && v.status === 'running')
    out.push(
      teamFinding(
        doc,
        '/status',
        'team/finished-status-not-terminal',
        'task_finished has status "running"; the event is ignored for state',
      ),
    );
  if (typeof attempt === 'number' && Number.isInteger(attempt) && attempt < 1)
    out.push(
      teamFinding(doc, '/attempt', 'team/attempt-below-one', `attempt is ${attempt}; attempts start at 1`),
    );
  pathListFindings(doc, 'inputs', v.inputs, out);
  pathListFindings(doc, 'artifacts', v.artifacts, out);
  textFinding(doc, 'evidence', LIMITS.evidence, v.evidence, out);
  textFinding(doc, 'next', LIMITS.next, v.next, out);
  textFinding(doc, 'reason', LIMITS.reason, v.reason, out);
  nameFindings(doc, v, out);
  const taskId = v.task_id;
  const runId = v.run_id;
  const fileName = fileNameOf(doc.path);
  const runDir = typeof runId === 'string' ? grandparentName(doc.path) : undefined;
  // Nearly every name agrees with its body: told without parsing it (the checks below then find nothing).
  if (
    typeof event === 'string' &&
    typeof taskId === 'string' &&
    typeof attempt === 'number' &&
    eventFileNameIs(fileName, event, taskId, attempt) &&
    (typeof runId !== 'string' || runId === runDir)
  )
    return out;
  const name = parseEventFileName(fileName);
  if (!name) {
    out.push(
      teamFinding(
        doc,
        '',
        'team/bad-file-name',
        `"${fileName}" is not named <time>-<event>-<task>-a<attempt>-<token>.json`,
      ),
    );
    return out;
  }
  if (
    (typeof event === 'string' && event !== name.event) ||
    (typeof taskId === 'string' && taskId !== name.task) ||
    (typeof attempt === 'number' && attempt !== name.attempt) ||
    (typeof runId === 'string' && runId !== runDir)
  ) {
    const differ: string[] = [];
    if (typeof event === 'string' && event !== name.event)
      differ.push(`event "${event}" (name: "${name.event}")`);
    if (typeof taskId === 'string' && taskId !== name.task)
      differ.push(`task_id "${taskId}" (name: "${name.task}")`);
    if (typeof attempt === 'number' && attempt !== name.attempt)
      differ.push(`attempt ${attempt} (name: a${name.attempt})`);
    if (typeof runId === 'string' && runId !== runDir)
      differ.push(`run_id "${runId}" (directory: "${runDir}")`);
    out.push(
      teamFinding(
        doc,
        '',
        'team/name-body-mismatch',
        `the body disagrees with the file name: ${differ.join(', ')}`,
        'readers use the body',
      ),
    );
  }
  return out;
}

function checkApproval(doc: CheckedDocument, v: Record<string, unknown>): Finding[] {
  const out: Finding[] = [];
  pathFinding(doc, '/artifact', v.artifact, out);
  textFinding(doc, 'note', LIMITS.note, v.note, out);
  nameFindings(doc, v, out);
  const fileName = fileNameOf(doc.path);
  const name = parseApprovalFileName(fileName);
  if (!name)
    out.push(
      teamFinding(doc, '', 'team/bad-file-name', `"${fileName}" is not named <time>-<stage>-<token>.json`),
    );
  else if (typeof v.stage === 'string' && v.stage !== name.stage)
    out.push(
      teamFinding(
        doc,
        '',
        'team/name-body-mismatch',
        `the body disagrees with the file name: stage "${v.stage}" (name: "${name.stage}")`,
      ),
    );
  return out;
}

function checkRun(doc: CheckedDocument, v: Record<string, unknown>): Finding[] {
  const out: Finding[] = [];
  nameFindings(doc, v, out);
  const dir = basename(dirname(doc.path));
  if (typeof v.run_id === 'string' && v.run_id !== dir)
    out.push(
      teamFinding(
        doc,
        '/run_id',
        'team/run-id-mismatch',
        `run_id "${v.run_id}" differs from its directory "${dir}"`,
      ),
    );
  return out;
}

/** The per-document rules of the team dialect. Pure: reads only the document (and its path). */
export function checkTeamDocument(doc: CheckedDocument): Finding[] {
  const v = obj(doc.value);
  if (!v || !doc.usable) return [];
  if (doc.kind === 'team/task-event') return checkEvent(doc, v);
  if (doc.kind === 'team/approval') return checkApproval(doc, v);
  if (doc.kind === 'team/run') return checkRun(doc, v);
  return [];
}

/** Semantic codes that say more than the schema's range/pattern error on the same value. */
const REPLACES_SCHEMA = new Set(['team/attempt-below-one', 'team/path-outside-project']);

/** Keeps a schema finding unless a semantic finding explains the same value better. */
export function filterTeamSchemaFindings(
  schema: readonly Finding[],
  semantic: readonly Finding[],
): Finding[] {
  const explained = new Set(semantic.filter((f) => REPLACES_SCHEMA.has(f.code)).map((f) => f.pointer));
  return schema.filter((f) => !explained.has(f.pointer));
}
