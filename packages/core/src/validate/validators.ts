import { lazyRequire } from '../util/lazy-require.js';

/** The shape of an ajv error, as the precompiled validators report them. */
export interface AjvError {
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly keyword: string;
  readonly params: Record<string, unknown>;
  readonly message?: string;
}

export interface PrecompiledValidator {
  (data: unknown): boolean;
  errors?: AjvError[] | null;
  /** Makes the kind's layout proof, when its schema has one (validate/layout-proof.ts). */
  makeLayoutProof?: () => (text: string) => object | undefined;
}

/** Node's require for this module, made on first use. */
const require = lazyRequire(() => import.meta.url);
const cache = new Map<string, PrecompiledValidator>();

/**
 * The validator precompiled at build time for a kind (`team/run`), loaded on first use only, so a command
 * pays for the kinds it meets and never compiles a schema at run time.
 */
export function validatorFor(kind: string): PrecompiledValidator {
  let v = cache.get(kind);
  if (!v) {
    const mod = require(`@ckpt/schemas/validators/${kind}`) as PrecompiledValidator & {
      default?: PrecompiledValidator;
    };
    v = mod.default ?? mod;
    cache.set(kind, v);
  }
  return v;
}
