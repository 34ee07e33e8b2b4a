import { createRequire } from 'node:module';

/**
 * Node's `require` for a module, made on its first call. Made at module load, it costs every run of the CLI's
 * bundles, which hold the module, a file URL and a module object (~0.5-2 ms of a one-file `ckpt validate`) even
 * when nothing is ever required. The URL comes as a function (`() => import.meta.url`): in the CommonJS bundle
 * `import.meta.url` is itself a `pathToFileURL` call, made only when the function is.
 */
export function lazyRequire(url: () => string): (id: string) => unknown {
  let required: NodeJS.Require | undefined;
  return (id) => {
    required ??= createRequire(url());
    return required(id);
  };
}
