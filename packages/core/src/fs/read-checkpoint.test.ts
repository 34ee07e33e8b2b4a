import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { tmpTree } from '@ckpt/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { readUtf8File } from '../parse/decode.js';
import { nodeFileSystem } from './file-system.js';
import {
  entryExists,
  ReadRefusedError,
  readCheckpointBytes,
  readRegularFile,
  readRegularFileUtf8,
} from './read-checkpoint.js';
import { readFailure } from './read-failure.js';
import { DEFAULT_MAX_FILE_SIZE, maxFileSize, parseByteSize, setMaxFileSize } from './read-limits.js';

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a refusal');
};

describe('readRegularFileUtf8', () => {
  let cleanup = () => {};
  afterEach(() => {
    cleanup();
    setMaxFileSize(undefined);
  });
  const tree = (files: Record<string, string> = {}) => {
    const t = tmpTree(files);
    cleanup = t.cleanup;
    return t.dir;
  };

  it('should read a regular file, also through a symlink inside the project', () => {
    const dir = tree({ 'a.json': '{"a":1}' });
    symlinkSync('a.json', join(dir, 'b.json'));
    expect(readRegularFileUtf8(join(dir, 'b.json'), { confineTo: dir })).toBe('{"a":1}');
  });

  it('should refuse a FIFO at once, naming its type, instead of blocking', () => {
    const dir = tree();
    execFileSync('mkfifo', [join(dir, 'run.json')]);
    const e = refusal(() => readRegularFileUtf8(join(dir, 'run.json')));
    expect(e).toBeInstanceOf(ReadRefusedError);
    expect((e as ReadRefusedError).findingCode).toBe('io/not-a-regular-file');
    expect((e as ReadRefusedError).reason).toBe('is a FIFO, not a regular file');
    expect((e as ReadRefusedError).exitCode).toBe(3);
  });

  it('should refuse a symlink to /dev/zero as a character device without reading a byte', () => {
    const dir = tree();
    symlinkSync('/dev/zero', join(dir, 'zero.json'));
    const e = refusal(() => readRegularFile(join(dir, 'zero.json'))) as ReadRefusedError;
    expect(e.reason).toBe('is a character device, not a regular file');
    // Also outside the project: what it is comes first.
    const c = refusal(() => readRegularFile(join(dir, 'zero.json'), { confineTo: dir })) as ReadRefusedError;
    expect(c.reason).toBe('is a character device, not a regular file');
  });

  it('should refuse a directory and a socket where a file is expected', async () => {
    const dir = tree();
    mkdirSync(join(dir, 'run.json'));
    // As readFileSync does for a directory (EISDIR, the same message): the ulpi verbs print it as the original.
    const d = refusal(() => readRegularFileUtf8(join(dir, 'run.json')));
    expect((d as NodeJS.ErrnoException).code).toBe('EISDIR');
    expect(readFailure(join(dir, 'run.json'), d)).toEqual({
      code: 'io/not-a-regular-file',
      reason: 'is a directory, not a regular file',
    });
    const sock = join(dir, 's.json');
    const server = createServer();
    await new Promise<void>((r) => server.listen(sock, r));
    try {
      // A socket cannot be opened (ENXIO): it is reported, never read.
      expect(
        readFailure(
          sock,
          refusal(() => readRegularFileUtf8(sock)),
        ).code,
      ).toMatch(/^io\//);
    } finally {
      server.close();
    }
  });

  it('should refuse a file over the limit before reading it (a sparse 100 MiB file uses no disk)', () => {
    const dir = tree({ 'big.json': '' });
    truncateSync(join(dir, 'big.json'), 100 * 2 ** 20);
    const e = refusal(() => readRegularFileUtf8(join(dir, 'big.json'))) as ReadRefusedError;
    expect(e.findingCode).toBe('io/too-large');
    expect(e.reason).toContain('100 MiB (104857600 bytes), over the 64 MiB limit');
    setMaxFileSize(200 * 2 ** 20);
    expect(readRegularFileUtf8(join(dir, 'big.json')).length).toBe(100 * 2 ** 20);
    expect(() => readRegularFileUtf8(join(dir, 'big.json'), { maxSize: 10 })).toThrow(
      'over the 10 bytes limit',
    );
  });

  it('should refuse a file whose real path is outside the confining directory', () => {
    const outer = tree({ 'secret.json': '{"title":"outside"}', 'proj/.ulpi/runs/x.json': '{}' });
    const proj = join(outer, 'proj');
    symlinkSync(join(outer, 'secret.json'), join(proj, '.ulpi/runs/link.json'));
    symlinkSync(outer, join(proj, 'up'));
    for (const p of [join(proj, '.ulpi/runs/link.json'), join(proj, 'up/secret.json')]) {
      const e = refusal(() => readRegularFileUtf8(p, { confineTo: proj })) as ReadRefusedError;
      expect(e.findingCode).toBe('io/outside-project');
      expect(e.message).not.toContain('outside"');
    }
    expect(readRegularFileUtf8(join(proj, '.ulpi/runs/link.json'))).toContain('outside');
  });

  it('should throw the open error of a symlink loop, which readFailure names as a loop', () => {
    const dir = tree();
    symlinkSync('loop.json', join(dir, 'loop.json'));
    const e = refusal(() => readRegularFileUtf8(join(dir, 'loop.json')));
    expect((e as NodeJS.ErrnoException).code).toBe('ELOOP');
    expect(readFailure(join(dir, 'loop.json'), e)).toEqual({
      code: 'io/symlink-loop',
      reason: 'is a symbolic link loop (too many levels of symbolic links)',
    });
    expect(entryExists(join(dir, 'loop.json'))).toBe(true);
    symlinkSync('nowhere', join(dir, 'dangling.json'));
    const d = refusal(() => readRegularFileUtf8(join(dir, 'dangling.json')));
    expect(readFailure(join(dir, 'dangling.json'), d).reason).toContain('dangling symbolic link');
  });

  it("should route readUtf8File and the writers' FileSystem.readFileSync through the same checks", () => {
    const dir = tree({ 'ok.json': '\uFEFF{}' });
    execFileSync('mkfifo', [join(dir, 'f.json')]);
    expect(readUtf8File(join(dir, 'ok.json'), 'ok.json').text).toBe('{}');
    expect(() => readUtf8File(join(dir, 'f.json'), 'f.json')).toThrow(ReadRefusedError);
    expect(() => nodeFileSystem.readFileSync(join(dir, 'f.json'))).toThrow('is a FIFO, not a regular file');
    writeFileSync(join(dir, 'bad.json'), Buffer.from([0x7b, 0xff, 0x7d]));
    expect(readUtf8File(join(dir, 'bad.json'), 'bad.json').findings[0]?.code).toBe('parse/invalid-utf8');
  });
});

describe('readCheckpointBytes', () => {
  let cleanup = () => {};
  afterEach(() => cleanup());
  const tree = (files: Record<string, string> = {}) => {
    const t = tmpTree(files);
    cleanup = t.cleanup;
    return t.dir;
  };
  const listed = { listedAsFile: true } as const;

  it('should read files smaller and larger than its buffer whole, and give readRegularFile a copy of its own', () => {
    const big = `{"a":"${'x'.repeat(200_000)}é"}`;
    const dir = tree({ 'small.json': '{"a":1}', 'big.json': big });
    for (const opts of [undefined, listed]) {
      expect(readCheckpointBytes(join(dir, 'big.json'), opts).toString('utf8')).toBe(big);
      const copy = readRegularFile(join(dir, 'small.json'), opts);
      readCheckpointBytes(join(dir, 'big.json'), opts);
      expect(copy.toString('utf8')).toBe('{"a":1}');
    }
  });

  it('should still refuse what is no longer a regular file when the walk listed one there', () => {
    const dir = tree();
    execFileSync('mkfifo', [join(dir, 'fifo.json')]);
    mkdirSync(join(dir, 'dir.json'));
    symlinkSync('/dev/zero', join(dir, 'zero.json'));
    writeFileSync(join(dir, 'empty.json'), '');
    const fifo = refusal(() => readCheckpointBytes(join(dir, 'fifo.json'), listed)) as ReadRefusedError;
    expect(fifo.reason).toBe('is a FIFO, not a regular file');
    expect(
      (refusal(() => readCheckpointBytes(join(dir, 'dir.json'), listed)) as NodeJS.ErrnoException).code,
    ).toBe('EISDIR');
    const zero = refusal(() => readCheckpointBytes(join(dir, 'zero.json'), listed)) as ReadRefusedError;
    expect(zero.reason).toBe('is a character device, not a regular file');
    expect(readCheckpointBytes(join(dir, 'empty.json'), listed).length).toBe(0);
  });

  it('should keep the size limit when the walk listed a regular file', () => {
    const dir = tree({ 'a.json': '{"title":"more than ten bytes"}' });
    expect(() => readCheckpointBytes(join(dir, 'a.json'), { ...listed, maxSize: 10 })).toThrow(
      'over the 10 bytes limit',
    );
  });

  it('should refuse a confined read through a folder replaced by a symlink to outside since an earlier read', async () => {
    const outer = tree({ 'proj/runs/a.json': '{"in":1}', 'elsewhere/a.json': '{"out":1}' });
    const proj = join(outer, 'proj');
    expect(readRegularFileUtf8(join(proj, 'runs/a.json'), { confineTo: proj })).toBe('{"in":1}');
    await new Promise((r) => setImmediate(r));
    renameSync(join(proj, 'runs'), join(proj, 'old'));
    symlinkSync(join(outer, 'elsewhere'), join(proj, 'runs'));
    const e = refusal(() => readRegularFileUtf8(join(proj, 'runs/a.json'), { confineTo: proj }));
    expect((e as ReadRefusedError).findingCode).toBe('io/outside-project');
    // A symlink inside the project to a file inside it is still read, through the exact check.
    symlinkSync(join(proj, 'old/a.json'), join(proj, 'link.json'));
    expect(readRegularFileUtf8(join(proj, 'link.json'), { confineTo: proj })).toBe('{"in":1}');
  });
});

describe('parseByteSize', () => {
  it('should read bytes and binary and decimal units', () => {
    expect(parseByteSize('1048576')).toBe(1048576);
    expect(parseByteSize('64MiB')).toBe(64 * 2 ** 20);
    expect(parseByteSize('64M')).toBe(64 * 2 ** 20);
    expect(parseByteSize('1.5 GiB')).toBe(1.5 * 2 ** 30);
    expect(parseByteSize('500kb')).toBe(500_000);
  });

  it('should refuse anything else', () => {
    for (const bad of ['', '0', '-1', 'banana', '64 parsecs', '1e3', 'MiB'])
      expect(parseByteSize(bad)).toBeUndefined();
  });

  it('should default to 64 MiB', () => {
    setMaxFileSize(undefined);
    if (process.env.CKPT_MAX_FILE_SIZE === undefined) expect(maxFileSize()).toBe(DEFAULT_MAX_FILE_SIZE);
    expect(DEFAULT_MAX_FILE_SIZE).toBe(67108864);
  });
});
