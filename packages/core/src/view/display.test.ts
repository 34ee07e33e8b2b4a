import { fcParams } from '@ckpt/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayInFolder, displayUnder } from './display.js';

const segment = fc.oneof(
  fc.constantFrom('', '.', '..', 'events', '.team', 'a\\b', 'run.json'),
  fc.string({ unit: fc.constantFrom('a', '.', '\\', '/', '-', 'é') }),
);

describe('displayInFolder', () => {
  it('should show every name of a folder as displayUnder shows its path', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('/p', '/p/', '/'),
        fc.array(segment, { maxLength: 4 }),
        segment,
        (dir, parts, name) => {
          const folder = [dir.replace(/\/$/, ''), ...parts].join('/') || '/';
          const base = folder.endsWith('/') ? folder : `${folder}/`;
          expect(displayInFolder(dir, folder)(name)).toBe(displayUnder(dir)(base + name));
        },
      ),
      fcParams(),
    );
  });

  it('should show the names of a plain folder by concatenation', () => {
    const show = displayInFolder('/p', '/p/.team/runs/r1/events');
    expect(show('e1.json')).toBe('.team/runs/r1/events/e1.json');
    expect(displayInFolder('/p', '/p')('run.json')).toBe('run.json');
    expect(show('..')).toBe(displayUnder('/p')('/p/.team/runs/r1/events/..'));
    expect(show('a\\b.json')).toBe(displayUnder('/p')('/p/.team/runs/r1/events/a\\b.json'));
  });
});
