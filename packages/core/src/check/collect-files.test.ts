import { join, relative } from 'node:path';
import { tmpTree } from '@ckpt/test-utils';
import { describe, expect, it } from 'vitest';
import { collectFiles } from './collect-files.js';

describe('collectFiles', () => {
  const files = {
    'a/x.json': '{}',
    'a/b/y.json': '{}',
    'a-b/z.json': '{}',
    'a/node_modules/skip.json': '{}',
    'a/.git/skip.json': '{}',
    'top.json': '{}',
  };

  it('should list every file once, sorted, with the same paths path.join gives, skipping node_modules and .git', () => {
    const t = tmpTree(files);
    const { files: found, missing } = collectFiles(['.', 'a', 'top.json'], t.dir);
    expect(missing).toEqual([]);
    expect(found.map((f) => f.file)).toEqual(['a-b/z.json', 'a/b/y.json', 'a/x.json', 'top.json']);
    for (const f of found) expect(f.path).toBe(join(t.dir, f.file));
    // Named on the command line as well as found in '.': named wins (it is then detected by content too).
    expect(found.find((f) => f.file === 'top.json')?.explicit).toBe(true);
    t.cleanup();
  });

  it('should show files of a directory outside the cwd by its absolute path, and mark named files explicit', () => {
    const t = tmpTree(files);
    const cwd = join(t.dir, 'a');
    const { files: found } = collectFiles([join(t.dir, 'a-b'), 'x.json', 'b'], cwd);
    expect(found.map((f) => f.file)).toEqual([join(t.dir, 'a-b', 'z.json'), 'b/y.json', 'x.json']);
    expect(found.map((f) => f.explicit)).toEqual([false, false, true]);
    expect(relative(cwd, found[1]!.path)).toBe(join('b', 'y.json'));
    t.cleanup();
  });

  it('should show every file as the path relative to the cwd with / separators, a backslash in a name too', () => {
    const t = tmpTree({ ...files, 'a/b\\c/w.json': '{}', 'a/b\\c/d/v.json': '{}', 'a/d\\e.json': '{}' });
    for (const [args, cwd] of [
      [['.'], t.dir],
      [['a'], t.dir],
      [['b\\c', '.'], join(t.dir, 'a')],
      [[join(t.dir, 'a')], join(t.dir, 'a-b')],
    ] as const) {
      const { files: found } = collectFiles(args, cwd);
      expect(found.length).toBeGreaterThan(2);
      for (const f of found) {
        const rel = f.path.startsWith(`${cwd}/`) ? f.path.slice(cwd.length + 1) : f.path;
        expect(f.file).toBe(rel.replace(/\\/g, '/'));
        expect(f.listedAsFile).toBe(true);
      }
    }
    t.cleanup();
  });

  it('should return paths that do not exist separately', () => {
    const t = tmpTree(files);
    expect(collectFiles(['nope', 'a'], t.dir).missing).toEqual(['nope']);
    t.cleanup();
  });
});
