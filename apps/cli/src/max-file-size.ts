import { parseByteSize, setMaxFileSize } from '@ckpt/core';
import { UsageError } from './usage-error.js';

const FLAG = '--max-file-size';
const SHAPE = 'a size in bytes or with a unit, such as 1048576 or 64MiB';

/**
 * The global `--max-file-size <bytes|64MiB>` (any command, any position before `--`) and `CKPT_MAX_FILE_SIZE`:
 * sets core's per-file read limit and returns the arguments without the flag, so every command (commander's and
 * the ulpi verbs' own parser) reads with the same limit. A malformed size is a usage error (exit 2).
 */
export function takeMaxFileSize(args: readonly string[]): string[] {
  const env = process.env.CKPT_MAX_FILE_SIZE;
  if (env !== undefined && parseByteSize(env) === undefined)
    throw new UsageError(`CKPT_MAX_FILE_SIZE must be ${SHAPE}, got ${JSON.stringify(env)}`);
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      out.push(...args.slice(i));
      break;
    }
    if (a !== FLAG && !a.startsWith(`${FLAG}=`)) {
      out.push(a);
      continue;
    }
    const value = a === FLAG ? args[++i] : a.slice(FLAG.length + 1);
    const bytes = value === undefined ? undefined : parseByteSize(value);
    if (bytes === undefined)
      throw new UsageError(
        `${FLAG} must be ${SHAPE}, got ${value === undefined ? 'nothing' : JSON.stringify(value)}`,
      );
    setMaxFileSize(bytes);
  }
  return out;
}
