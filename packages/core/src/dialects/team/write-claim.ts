import { hostname } from 'node:os';
import { join } from 'node:path';
import { writeOnce } from '../../fs/atomic.js';
import { type Ctx, ensureDir, json, refuse } from './write-common.js';

// The terminal slot of a task attempt. Two `finish-task` calls on one attempt must not both publish a terminal event
// (that is a conflict the reader can only report). Before publishing, a finisher claims the slot with a write-once
// file `<run>/claims/<task>-a<attempt>.claim` (link(2): exactly one creator wins). The claim records the event it is
// about to publish, by name and bytes; publishing is a write-once link to that fixed name, so whoever publishes it,
// it is published once. Readers (ckpt's and the helper's) read run.json, events/ and approvals/ only: claims/ and
// its `.claim` files are not checkpoint files, and `ckpt validate` does not look at them.

/** What a claim file holds. */
interface TerminalClaim {
  readonly task_id: string;
  readonly attempt: number;
  readonly status: string;
  readonly event_file: string;
  readonly event: unknown;
  readonly pid: number;
  readonly host: string;
  readonly claimed_at: string;
}

/** A claim held on another host is taken as abandoned only after this long (its process cannot be asked). */
const FOREIGN_CLAIM_MS = 60_000;

export const claimPathFor = (runDir: string, task: string, attempt: number) =>
  join(runDir, 'claims', `${task}-a${attempt}.claim`);

function readClaim(c: Ctx, path: string): TerminalClaim | undefined {
  try {
    const v = JSON.parse(new TextDecoder().decode(c.fs.readFileSync(path))) as TerminalClaim;
    return typeof v?.event_file === 'string' && v.event !== undefined ? v : undefined;
  } catch {
    return undefined;
  }
}

function holderAlive(c: Ctx, claim: TerminalClaim, path: string): boolean {
  if (claim.host !== hostname()) {
    try {
      return c.clock.now().getTime() - c.fs.statSync(path).mtimeMs < FOREIGN_CLAIM_MS;
    } catch {
      return true;
    }
  }
  if (claim.pid === process.pid) return false;
  try {
    process.kill(claim.pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Publishes the terminal event of an attempt through its claim: claim the slot (write-once), then publish the
 * event (write-once, at the name the claim fixed). Exactly one caller per attempt returns; the others are refused
 * (exit 2). A claim left by a finisher that died before publishing is completed by the next `finish-task` on that
 * attempt: it publishes the claimed event, and succeeds when it asked for the same status.
 */
export function publishTerminal(
  c: Ctx,
  runDir: string,
  o: { task: string; attempt: number; status: string; eventPath: string; body: unknown },
): string {
  const path = claimPathFor(runDir, o.task, o.attempt);
  const eventFile = o.eventPath.slice(join(runDir, 'events').length + 1);
  const claim: TerminalClaim = {
    task_id: o.task,
    attempt: o.attempt,
    status: o.status,
    event_file: eventFile,
    event: o.body,
    pid: process.pid,
    host: hostname(),
    claimed_at: c.clock.now().toISOString(),
  };
  ensureDir(c, join(runDir, 'claims'));
  ensureDir(c, join(runDir, 'events'));
  const slot = `task "${o.task}" attempt ${o.attempt}`;
  if (writeOnce(path, json(claim), { fs: c.fs })) {
    if (writeOnce(o.eventPath, json(o.body), { fs: c.fs })) return o.eventPath;
    refuse(`${slot}: its terminal event was published by another finish-task meanwhile`);
  }
  const held = readClaim(c, path);
  if (!held) refuse(`${slot} is being finished by another finish-task (its claim ${path} is unreadable)`);
  const heldEvent = join(runDir, 'events', held!.event_file);
  if (c.fs.existsSync(heldEvent))
    refuse(`${slot} already has a terminal event (${held!.status}); events are never rewritten`);
  if (holderAlive(c, held!, path))
    refuse(
      `${slot} is being finished as ${held!.status} by another finish-task (pid ${held!.pid} on ${held!.host}) right now`,
    );
  // The holder died between claim and publish: complete its claim. Only the caller whose link lands succeeds.
  if (!writeOnce(heldEvent, json(held!.event), { fs: c.fs }))
    refuse(`${slot}: its interrupted finish was completed by another finish-task meanwhile`);
  if (held!.status !== o.status)
    refuse(
      `${slot} finished as ${held!.status}: an interrupted finish-task had claimed it, and its event is now published; events are never rewritten (use \`ckpt team retry\` after a failed or interrupted attempt)`,
    );
  return heldEvent;
}
