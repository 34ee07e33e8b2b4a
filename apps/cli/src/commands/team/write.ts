import { relative, resolve } from 'node:path';
import {
  approveTeamStage,
  escapeTerminal,
  finishTeamTask,
  retryTeamTask,
  startTeamRun,
  startTeamTask,
  type TeamWriteResult,
} from '@ckpt/core';
import { printJson, printText } from '../../output/print.js';

type Verb = 'start-run' | 'start-task' | 'finish-task' | 'retry' | 'approve';

/** Runs one writer verb; refusals throw CkptError('REFUSED'), which main prints as one line with exit code 2. */
/** The flags commander parsed for a writer verb (each verb has a subset). */
interface WriteFlags {
  project?: string;
  session?: string;
  parentSession?: string;
  json?: boolean;
  profile: string;
  stage: string;
  run: string;
  task: string;
  agent: string;
  input: string[];
  status: string;
  artifact: string | string[];
  evidence: string;
  next: string;
  reason: string;
  by: string;
  note?: string;
}

export function runTeamWrite(verb: Verb, f: WriteFlags): void {
  const projectDir = resolve(f.project ?? process.cwd());
  const base = {
    projectDir,
    ...(f.session !== undefined ? { session: f.session as string } : {}),
    ...(f.parentSession !== undefined ? { parentSession: f.parentSession as string } : {}),
  };
  let r: TeamWriteResult;
  if (verb === 'start-run') r = startTeamRun({ ...base, profile: f.profile, stage: f.stage });
  else if (verb === 'start-task')
    r = startTeamTask({ ...base, run: f.run, task: f.task, stage: f.stage, agent: f.agent, inputs: f.input });
  else if (verb === 'finish-task')
    r = finishTeamTask({
      ...base,
      run: f.run,
      task: f.task,
      status: f.status,
      artifacts: [f.artifact].flat(),
      evidence: f.evidence,
      next: f.next,
    });
  else if (verb === 'retry') r = retryTeamTask({ ...base, run: f.run, task: f.task, reason: f.reason });
  else
    r = approveTeamStage({
      ...base,
      run: f.run,
      stage: f.stage,
      artifact: String(f.artifact),
      by: f.by,
      ...(f.note !== undefined ? { note: f.note } : {}),
    });
  const file = relative(projectDir, r.path).replace(/\\/g, '/');
  if (f.json) {
    printJson({ ...r, path: file });
    return;
  }
  // start-run prints the run id alone so scripts can capture it: RUN=$(ckpt team start-run ...).
  printText(verb === 'start-run' ? `${r.runId}\n` : `${escapeTerminal(file)}\n`);
  if (verb === 'start-run') process.stderr.write(`started run ${r.runId} (current)\n`);
}
