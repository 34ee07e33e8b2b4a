// ajv's standalone code of one schema as the precompiled validators start from it (build-assets.mjs, before the
// lean rewrites of lean-validators.mjs): ckpt's ajv options, the formats from dist/formats.cjs and the string length
// from dist/ucs2length.cjs, both required relative to dist/validators/<dialect>/<kind>.cjs.
import Ajv2020, { _ } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import addFormats from 'ajv-formats';

const AJV_UCS2LENGTH = 'require("ajv/dist/runtime/ucs2length").default';
/** How a validator requires its string length (scripts/ucs2length.cjs, copied to dist/). */
export const OUR_UCS2LENGTH = 'require("../../ucs2length.cjs").default';

/** How a validator requires its formats (scripts/formats.cjs, copied to dist/): the `formats` code given to ajv below. */
export const OUR_FORMATS = 'require("../../formats.cjs")';

/** The standalone CommonJS code of a validator for `schema`; `id` names it in an error. */
export function standaloneValidatorCode(schema, id = '') {
  const ajv = new Ajv2020({
    strict: true,
    allErrors: true,
    ownProperties: true,
    code: { source: true, formats: _`require("../../formats.cjs")` },
  });
  addFormats(ajv);
  const code = standaloneCode(ajv, ajv.compile(schema));
  // ajv has no option for its runtime functions' code, as it has for formats': the one require is replaced.
  const ours = code.replaceAll(AJV_UCS2LENGTH, OUR_UCS2LENGTH);
  if (ours.includes('ajv/dist/runtime/ucs2length'))
    throw new Error(`build-assets: ${id}: ajv's ucs2length is required in a form not replaced`);
  return ours;
}
