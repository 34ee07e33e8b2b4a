import { basename, dirname } from 'node:path';
import { documentFinding } from '../../findings/document-finding.js';
import { type Finding, findingAt } from '../../findings/finding.js';
import type { CheckedDocument } from '../dialect.js';
import { type TeamCode, teamCodes } from './codes.js';
import { charLength, LIMITS, pathProblem, secretIn } from './guards.js';
import { fileNameOf, parseApprovalFileName, parseEventFileName } from './names.js';
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
const NAME_FIELDS = ['task_id', 'stage', 'agent', 'profile', 'by'] as const;

function textFindings(
  doc: CheckedDocument,
  v: Record<string, unknown>,
  fields: readonly TextField[],
): Finding[] {
  const out: Finding[] = [];
  for (const f of fields) {
    const t = v[f];
    if (typeof t !== 'string') continue;
    const secret = secretIn(t);
    if (secret)
      out.push(
        teamFinding(doc, `/${f}`, 'team/secret-in-text', `${f} looks like it holds a secret (${secret})`),
      );
    else if (charLength(t) > LIMITS[f])
      out.push(
        teamFinding(
          doc,
          `/${f}`,
          'team/value-too-long',
          `${f} is ${charLength(t)} characters long; the limit is ${LIMITS[f]}`,
        ),
      );
  }
  for (const f of NAME_FIELDS) {
    const t = v[f];
    if (typeof t !== 'string') continue;
    if (secretIn(t))
      out.push(
        teamFinding(
          doc,
          `/${f}`,
          'team/secret-in-text',
          `${f} looks like it holds a secret (${secretIn(t)})`,
        ),
      );
    else if (charLength(t) > LIMITS.name)
      out.push(
        teamFinding(
          doc,
          `/${f}`,
          'team/value-too-long',
          `${f} is ${charLength(t)} characters long; the limit is ${LIMITS.name}`,
        ),
      );
  }
  return out;
}

function pathFindings(doc: CheckedDocument, pointer: string, value: unknown): Finding[] {
  if (typeof value !== 'string') return [];
  const problem = pathProblem(value);
  if (!problem) return [];
  const code: TeamCode = problem.includes('longer') ? 'team/value-too-long' : 'team/path-outside-project';
  return [teamFinding(doc, pointer, code, `${JSON.stringify(value.slice(0, 80))}: ${problem}`)];
}

function checkEvent(doc: CheckedDocument, v: Record<string, unknown>): Finding[] {
  const out: Finding[] = [];
  if (v.event === 'task_started' && isTerminalStatus(v.status))
    out.push(
      teamFinding(
        doc,
        '/status',
        'team/started-status-not-running',
        `task_started has status "${v.status}"; expected "running"`,
      ),
    );
  if (v.event === 'task_finished' && v.status === 'running')
    out.push(
      teamFinding(
        doc,
        '/status',
        'team/finished-status-not-terminal',
        'task_finished has status "running"; the event is ignored for state',
      ),
    );
  if (typeof v.attempt === 'number' && Number.isInteger(v.attempt) && v.attempt < 1)
    out.push(
      teamFinding(doc, '/attempt', 'team/attempt-below-one', `attempt is ${v.attempt}; attempts start at 1`),
    );
  for (const key of ['inputs', 'artifacts'] as const)
    if (Array.isArray(v[key]))
      (v[key] as unknown[]).forEach((p, i) => out.push(...pathFindings(doc, `/${key}/${i}`, p)));
  out.push(...textFindings(doc, v, ['evidence', 'next', 'reason']));
  const name = parseEventFileName(fileNameOf(doc.path));
  if (!name) {
    out.push(
      teamFinding(
        doc,
        '',
        'team/bad-file-name',
        `"${fileNameOf(doc.path)}" is not named <time>-<event>-<task>-a<attempt>-<token>.json`,
      ),
    );
    return out;
  }
  const differ: string[] = [];
  if (typeof v.event === 'string' && v.event !== name.event)
    differ.push(`event "${v.event}" (name: "${name.event}")`);
  if (typeof v.task_id === 'string' && v.task_id !== name.task)
    differ.push(`task_id "${v.task_id}" (name: "${name.task}")`);
  if (typeof v.attempt === 'number' && v.attempt !== name.attempt)
    differ.push(`attempt ${v.attempt} (name: a${name.attempt})`);
  const runDir = basename(dirname(dirname(doc.path)));
  if (typeof v.run_id === 'string' && v.run_id !== runDir)
    differ.push(`run_id "${v.run_id}" (directory: "${runDir}")`);
  if (differ.length > 0)
    out.push(
      teamFinding(
        doc,
        '',
        'team/name-body-mismatch',
        `the body disagrees with the file name: ${differ.join(', ')}`,
        'readers use the body',
      ),
    );
  return out;
}

function checkApproval(doc: CheckedDocument, v: Record<string, unknown>): Finding[] {
  const out = [...pathFindings(doc, '/artifact', v.artifact), ...textFindings(doc, v, ['note'])];
  const name = parseApprovalFileName(fileNameOf(doc.path));
  if (!name)
    out.push(
      teamFinding(
        doc,
        '',
        'team/bad-file-name',
        `"${fileNameOf(doc.path)}" is not named <time>-<stage>-<token>.json`,
      ),
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
  const out = textFindings(doc, v, []);
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
