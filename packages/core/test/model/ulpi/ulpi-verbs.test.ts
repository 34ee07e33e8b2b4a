import { join } from 'node:path';
import { fcParams, tmpTree } from '@ckpt/test-utils';
import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import { initUlpiRun } from '../../../src/dialects/ulpi/write.js';
import { ulpiCommands } from './commands/index.js';
import type { UlpiModel, UlpiReal } from './model.js';

describe('ulpi verbs against a model', () => {
  const tree = tmpTree();
  afterAll(() => tree.cleanup());
  let n = 0;

  it('should apply every sequence of unit, finalize and resume as the model says, refusing what the original refuses', () => {
    fc.assert(
      fc.property(fc.commands(ulpiCommands, { maxCommands: 25 }), (cmds) => {
        const file = join(tree.dir, '.ulpi/runs', `model-${n++}.json`);
        initUlpiRun(file, { task: 'model run', id: `model-${n}`, units: ['api', 'web'] });
        const model: UlpiModel = {
          status: 'running',
          units: new Map([
            ['api', 'pending'],
            ['web', 'pending'],
          ]),
        };
        const real: UlpiReal = { file };
        fc.modelRun(() => ({ model, real }), cmds);
      }),
      fcParams(60),
    );
  });
});
