export { CrashError, type FaultyFileSystem, faultyFileSystem } from './faulty-fs.js';
export { fcParams } from './seed.js';
export { type TmpTree, tmpTree } from './tmp-tree.js';
