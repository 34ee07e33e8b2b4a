import { validatorFor } from './validators.js';

/**
 * The value of a text proved a valid document of `kind` by its layout, or undefined: the one test every caller of
 * the per-file checks makes before parsing and validating a JSON document the full way. The proof is precompiled
 * with the kind's validator (@ckpt/schemas scripts/layout-proof.mjs: one regular-expression test of the layout real
 * writers produce, JSON.parse, then the checks a layout cannot make, each as the validator makes it); a kind whose
 * schema it does not support has none.
 *
 * What it means: when it gives a value, parseJson on the text would give the same value and no finding (no
 * duplicate key, no nesting beyond MAX_DEPTH, no number out of range), the kind's validator would accept it, and
 * `--strict` would find no unknown field. When it gives none, nothing is known: the full path runs as before.
 */
export function provedByLayout(kind: string, text: string): object | undefined {
  const proof = validatorFor(kind).layoutProof;
  return proof === undefined ? undefined : proof(text);
}
