import { validatorFor } from './validators.js';

/** A kind's layout proof: the text's JSON.parse value when it is proved a valid document of the kind, else undefined. */
export type LayoutProof = (text: string) => object | undefined;

/** Each kind's proof, made on first use (null: its schema has none). */
const proofs = new Map<string, LayoutProof | null>();

/**
 * The layout proof of a kind, or undefined when its schema has none. It is precompiled with the kind's validator
 * (@ckpt/schemas scripts/layout-proof.mjs: one regular-expression test of the layout real writers produce,
 * JSON.parse, then the checks a layout cannot make, each as the validator makes it).
 *
 * What it means: when it gives a value, parseJson on the text would give the same value and no finding (no
 * duplicate key, no nesting beyond MAX_DEPTH, no number out of range), the kind's validator would accept it, and
 * `--strict` would find no unknown field. When it gives none, nothing is known.
 */
export function layoutProofOf(kind: string): LayoutProof | undefined {
  let proof = proofs.get(kind);
  if (proof === undefined) {
    proof = validatorFor(kind).makeLayoutProof?.() ?? null;
    proofs.set(kind, proof);
  }
  return proof ?? undefined;
}

/**
 * Texts a process checks the full way before it uses layout proofs: compiling a layout's regular expression costs
 * ~0.35 ms, what the proof saves on a few hundred texts, so a brief input (one file, a small tree) never pays it.
 */
export const BRIEF_TEXTS = 256;
let texts = 0;

/**
 * The value of a text proved a valid document of `kind` by its layout (`layoutProofOf`), or undefined: the one test
 * every caller of the per-file checks makes before parsing and validating a JSON document the full way, which runs
 * as before when this gives none.
 */
export function provedByLayout(kind: string, text: string): object | undefined {
  if (texts < BRIEF_TEXTS) {
    texts++;
    return undefined;
  }
  const proof = layoutProofOf(kind);
  return proof === undefined ? undefined : proof(text);
}
