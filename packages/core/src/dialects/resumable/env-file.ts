import { dirname } from 'node:path';
import { CkptError } from '../../errors.js';
import { fsyncDir, writeTemp } from '../../fs/atomic.js';
import type { FileSystem } from '../../fs/file-system.js';
import { decodeUtf8 } from '../../parse/decode.js';
import { parseEnv, serializeEnv } from '../../parse/env.js';

/** An env file as a writer reads it: values and the comment lines it keeps. */
export interface EnvFile {
  readonly values: Record<string, string>;
  readonly comments: readonly string[];
}

/**
 * Reads an env file for a writer. An unreadable or unparsable file is a stop condition: the writer refuses
 * rather than guess (REFUSED, exit 2).
 */
export function readEnvFile(fs: FileSystem, path: string, what: string): EnvFile {
  let bytes: Uint8Array;
  try {
    bytes = fs.readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CkptError('REFUSED', `${what} is missing (${path}): stop`);
    throw new CkptError('IO', `cannot read ${path}: ${code ?? String(e)}`, { cause: e });
  }
  const text = decodeUtf8(bytes, path).text;
  const parsed = text === undefined ? undefined : parseEnv(text, path);
  if (!parsed?.ok) {
    const f = parsed?.findings[0];
    throw new CkptError(
      'REFUSED',
      `${what} is unparsable${f ? ` (line ${f.line}: ${f.message})` : ''}: stop; fix it by hand or start a new run`,
    );
  }
  const values: Record<string, string> = Object.create(null);
  for (const [k, v] of Object.entries(parsed.values)) values[k] = v;
  return { values, comments: parsed.comments.map((c) => c.text) };
}

/**
 * Replaces an env file: serialize (sorted keys, quoted values), write a temp file and fsync it, read the temp
 * file back and parse-check it against the intended values, then rename and fsync the directory. Nothing is
 * ever edited in place.
 */
export function replaceEnvFile(
  fs: FileSystem,
  path: string,
  values: Readonly<Record<string, string>>,
  comments: readonly string[] = [],
): void {
  const text = serializeEnv(values, comments);
  const tmp = writeTemp(fs, path, text);
  try {
    const back = decodeUtf8(fs.readFileSync(tmp), tmp).text;
    const parsed = back === undefined ? undefined : parseEnv(back, tmp);
    const same =
      parsed?.ok === true &&
      Object.keys(parsed.values).length === Object.keys(values).length &&
      Object.entries(values).every(([k, v]) => parsed.values[k] === v);
    if (!same) throw new CkptError('IO', `parse-check of ${tmp} failed; ${path} was not replaced`);
    fs.renameSync(tmp, path);
  } catch (e) {
    try {
      fs.unlinkSync(tmp);
    } catch {
      // Gone already, or the process is dying: readers ignore temp files.
    }
    throw e;
  }
  fsyncDir(fs, dirname(path));
}
