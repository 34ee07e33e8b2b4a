import { relative, resolve } from 'node:path';
import { createTreeContext } from '../../check/validate-files.js';
import type { Finding } from '../../findings/finding.js';
import type { CheckedDocument } from '../dialect.js';
import { obj } from './doc-util.js';
import { type FingerprintVerdict, judgeFingerprint } from './fingerprint-rules.js';
import { discoverAgentContextRoots, loadAgentContextTree } from './load.js';
import {
  type AgentContextRunSummary,
  type AgentContextTaskSummary,
  summarizeRun,
  summarizeTask,
} from './model.js';
import { treeFindings } from './tree-rules.js';

/** Version of the JSON `ckpt agent-context status --json` and `verify --json` print. */
export const AGENT_CONTEXT_REPORT_VERSION = 1;

/** Where every task and orchestrator run of a project stands. */
export interface AgentContextStatus {
  readonly formatVersion: number;
  readonly roots: readonly string[];
  readonly tasks: readonly AgentContextTaskSummary[];
  readonly runs: readonly AgentContextRunSummary[];
}

function open(projectDir: string) {
  const dir = resolve(projectDir);
  const display = (abs: string) => relative(dir, abs).replace(/\\/g, '/') || '.';
  const ctx = createTreeContext({}, display);
  const trees = discoverAgentContextRoots(dir).map((root) => loadAgentContextTree(root, ctx));
  return { trees, display };
}

/** The status of every `.agent-context/` under a project: tasks (state, next action, evidence) and runs. */
export function agentContextStatus(projectDir: string): AgentContextStatus {
  const { trees, display } = open(projectDir);
  return {
    formatVersion: AGENT_CONTEXT_REPORT_VERSION,
    roots: trees.map((t) => display(t.root)),
    tasks: trees.flatMap((t) => [...t.tasks].map(([id, doc]) => summarizeTask(id, doc))),
    runs: trees.flatMap((t) =>
      [...new Set([...t.orchestrator.keys(), ...t.iterations.keys()])]
        .sort()
        .map((id) => summarizeRun(id, t.orchestrator.get(id), t.iterations.get(id) ?? [])),
    ),
  };
}

/** One stored convergence record, recomputed. */
export interface AgentContextVerifyEntry {
  readonly file: string;
  readonly kind: string;
  readonly status?: string;
  readonly fingerprint?: FingerprintVerdict;
  /** True when the fingerprint, its normal form, the convergence status and the chain all check out. */
  readonly ok: boolean;
  readonly findings: readonly Finding[];
}

export interface AgentContextVerifyReport {
  readonly formatVersion: number;
  readonly checked: number;
  readonly mismatches: number;
  readonly entries: readonly AgentContextVerifyEntry[];
}

const VERIFY_CODES = new Set([
  'agent-context/fingerprint-mismatch',
  'agent-context/fingerprint-not-normalized',
  'agent-context/convergence-mismatch',
  'agent-context/broken-fingerprint-chain',
]);

/** Recomputes every stored fingerprint and convergence under a project and reports each with its mismatches. */
export function verifyAgentContext(projectDir: string): AgentContextVerifyReport {
  const { trees } = open(projectDir);
  const entries: AgentContextVerifyEntry[] = [];
  for (const tree of trees) {
    const chain = treeFindings(tree).filter((f) => VERIFY_CODES.has(f.code));
    const docs: CheckedDocument[] = [
      ...tree.orchestrator.values(),
      ...[...tree.iterations.values()].flat().flatMap((it) => [it.iteration, it.decision]),
    ].filter((d): d is CheckedDocument => !!d);
    for (const doc of docs) {
      const conv = doc.usable ? obj(obj(doc.value)?.convergence) : undefined;
      if (!conv) continue;
      const verdict = judgeFingerprint(conv.fingerprint);
      const findings = [...doc.findings, ...chain].filter(
        (f) => f.file === doc.file && VERIFY_CODES.has(f.code),
      );
      entries.push({
        file: doc.file,
        kind: doc.kind ?? 'unknown',
        ...(typeof conv.status === 'string' ? { status: conv.status } : {}),
        ...(verdict ? { fingerprint: verdict } : {}),
        ok: findings.length === 0 && verdict !== undefined,
        findings,
      });
    }
  }
  entries.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return {
    formatVersion: AGENT_CONTEXT_REPORT_VERSION,
    checked: entries.length,
    mismatches: entries.filter((e) => !e.ok).length,
    entries,
  };
}
