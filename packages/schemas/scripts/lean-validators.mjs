// Rewrites of ajv's standalone code for the precompiled validators (build-assets.mjs), each giving the same answer
// and the same errors for every value a ckpt parser makes: JSON.parse's objects and arrays (prototype
// Object.prototype) and the env and lock parsers' objects (prototype Object.prototype or null). The validators run
// once per checkpoint file, mostly unoptimised (a brief `validate` has no optimizing compiler), where each of these
// calls and allocations is paid for in full: on a team task event they were about half of the validator's time.
// test/lean-validators.test.ts compares every kind's lean validator with ajv's own code on fixtures and mutations.

/**
 * `ownProperties: true` makes ajv ask `hasOwnProperty` after each read of a named member, so that an inherited one
 * does not count. A parsed value inherits nothing but Object.prototype's members: for a name that is not one of them
 * (not `in Object.prototype`, which also rules out `__proto__`), `data.name !== undefined` already says it is own.
 */
const REQUIRED =
  /\(\((data\d*)\.([A-Za-z_$][\w$]*) === undefined\) \|\| \(!\((func\d+)\.call\(\1, "\2"\)\)\)\)/g;
const PRESENT = /(data\d*)\.([A-Za-z_$][\w$]*) !== undefined && (func\d+)\.call\(\1, "\2"\)/g;

/** ajv's `minLength: 1` on a string: its code points below 1, i.e. it is empty (no loop, no surrogate test). */
const MIN_LENGTH_1 = /\b(func\d+)\((data\d*)\) < 1\b/g;

/**
 * A validator that calls no other (one function in the file) takes its options as ajv destructures them, which
 * makes two objects per call when none are given (the defaults `{}` and `dynamicAnchors={}`). Only `instancePath`
 * is read then: it is taken from the options when given, else "" (as the default does: also for an explicit
 * undefined).
 */
const HEADER =
  /function (validate\d+)\(data, \{instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors=\{\}\}=\{\}\)\{/g;
const LEAN_HEADER = (name) =>
  `function ${name}(data, options){const instancePath = options === undefined || options.instancePath === undefined ? "" : options.instancePath;`;

/** The name bound to a runtime function in the standalone code (`const func0 = Object.prototype.hasOwnProperty;`). */
function boundTo(code, source) {
  const names = new Set();
  const re = /const (func\d+) = ([^;]+);/g;
  for (let m = re.exec(code); m; m = re.exec(code)) if (m[2] === source) names.add(m[1]);
  return names;
}

const count = (code, word) => code.split(word).length - 1;

/** The lean form of one validator's standalone code (see above); the code unchanged where a rewrite does not apply. */
export function leanValidatorCode(code, ucs2lengthSource) {
  let out = code;
  const hasOwn = boundTo(code, 'Object.prototype.hasOwnProperty');
  const inherited = (name) => name in Object.prototype;
  out = out.replace(REQUIRED, (m, data, name, fn) =>
    hasOwn.has(fn) && !inherited(name) ? `(${data}.${name} === undefined)` : m,
  );
  out = out.replace(PRESENT, (m, data, name, fn) =>
    hasOwn.has(fn) && !inherited(name) ? `${data}.${name} !== undefined` : m,
  );
  const length = boundTo(code, ucs2lengthSource);
  out = out.replace(MIN_LENGTH_1, (m, fn, data) => (length.has(fn) ? `${data}.length < 1` : m));
  // One header in the file, and the options' other members named nowhere else: nothing reads them.
  const headers = out.match(HEADER) ?? [];
  // `options` is the lean header's parameter: only where the code names nothing so.
  const others = ['parentData', 'parentDataProperty', 'rootData', 'dynamicAnchors'];
  if (
    headers.length === 1 &&
    count(out, 'options') === 0 &&
    others.every((w) => count(out, w) === count(headers[0], w))
  )
    out = out.replace(HEADER, (_, name) => LEAN_HEADER(name));
  return out;
}
