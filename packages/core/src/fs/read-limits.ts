/** The default per-file read limit: 64 MiB, far above any real checkpoint, far below what exhausts memory. */
export const DEFAULT_MAX_FILE_SIZE = 64 * 2 ** 20;

const UNITS: Readonly<Record<string, number>> = {
  '': 1,
  b: 1,
  k: 2 ** 10,
  kb: 1e3,
  kib: 2 ** 10,
  m: 2 ** 20,
  mb: 1e6,
  mib: 2 ** 20,
  g: 2 ** 30,
  gb: 1e9,
  gib: 2 ** 30,
};

/**
 * Parses a size: bytes (`1048576`) or a number with a unit (`64MiB`, `1.5 GiB`, `500kb`; KiB/MiB/GiB and K/M/G
 * are powers of 1024, kB/MB/GB of 1000). Undefined for anything else, zero or negative.
 */
export function parseByteSize(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  if (!m) return undefined;
  const unit = UNITS[m[2]!.toLowerCase()];
  if (unit === undefined) return undefined;
  const n = Math.floor(Number(m[1]) * unit);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

let configured: number | undefined;

/**
 * Sets the limit for this process (the CLI's `--max-file-size`); undefined goes back to CKPT_MAX_FILE_SIZE (read
 * again) or the default.
 */
export function setMaxFileSize(bytes: number | undefined): void {
  configured = bytes;
}

/**
 * The per-file read limit in bytes: what setMaxFileSize set, else `CKPT_MAX_FILE_SIZE` when it parses, else
 * 64 MiB. (The CLI rejects an unparsable CKPT_MAX_FILE_SIZE with exit 2 before reading anything.)
 */
export function maxFileSize(): number {
  // Computed once: a process.env lookup per file would show on 100k files.
  if (configured === undefined) {
    const env = process.env.CKPT_MAX_FILE_SIZE;
    configured = (env !== undefined && parseByteSize(env)) || DEFAULT_MAX_FILE_SIZE;
  }
  return configured;
}
