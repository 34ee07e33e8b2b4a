'use strict';
// The string length the precompiled validators check minLength/maxLength with (build-assets.mjs copies this file to
// dist/ucs2length.cjs and points ajv's standalone code at it instead of ajv/dist/runtime/ucs2length): the number of
// code points, a surrogate pair counting once. A string without any UTF-16 surrogate code unit (one native regular
// expression test) has as many code points as code units: its `length`, without ajv's loop over every character
// (which short runs mostly run unoptimised). Any other string gets that same loop: the result is ajv's for every
// string (test/ucs2length.test.ts).
const SURROGATE = /[\uD800-\uDFFF]/;

/** ajv's ucs2length (ajv/dist/runtime/ucs2length.js): code points, a lone surrogate counting as one. */
function countCodePoints(str) {
  const len = str.length;
  let length = 0;
  let pos = 0;
  let value;
  while (pos < len) {
    length++;
    value = str.charCodeAt(pos++);
    if (value >= 0xd800 && value <= 0xdbff && pos < len) {
      // high surrogate, and there is a next character
      value = str.charCodeAt(pos);
      if ((value & 0xfc00) === 0xdc00) pos++; // low surrogate
    }
  }
  return length;
}

function ucs2length(str) {
  return SURROGATE.test(str) ? countCodePoints(str) : str.length;
}

module.exports = ucs2length;
module.exports.default = ucs2length;
