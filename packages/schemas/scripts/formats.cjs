'use strict';
// The formats the precompiled validators check (build-assets.mjs copies this file to dist/formats.cjs
// and points ajv's standalone code at it): ajv-formats' full formats, with `date-time` told first by a check of
// the form every checkpoint writer uses (`2026-10-28T13:10:16Z`, or with a fraction), without the two regular
// expressions, the split and their ~700 bytes of garbage per value (validate checks one or two per file). Any other
// text gets ajv-formats' own answer: the fast check only says yes where that one does (test/formats.test.ts).
const { fullFormats } = require('ajv-formats/dist/formats');

const full = fullFormats['date-time'];
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The two-digit number at `i`, or -1 when either character is not an ASCII digit. */
function two(s, i) {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/** `YYYY-MM-DDTHH:MM:SS[.fraction]Z` with a real day, hour, minute and second (no leap second). */
function plainUtc(s) {
  const n = s.length;
  if (n < 20 || s.charCodeAt(10) !== 84 || s.charCodeAt(n - 1) !== 90) return false; // T, Z
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return false; // -
  if (s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return false; // :
  if (n > 20) {
    if (n < 22 || s.charCodeAt(19) !== 46) return false; // . and at least one digit
    for (let i = 20; i < n - 1; i++) {
      const c = s.charCodeAt(i);
      if (c < 48 || c > 57) return false;
    }
  }
  const hi = two(s, 0);
  const lo = two(s, 2);
  const month = two(s, 5);
  const day = two(s, 8);
  const hour = two(s, 11);
  const minute = two(s, 14);
  const second = two(s, 17);
  if (hi < 0 || lo < 0 || month < 1 || month > 12 || day < 1) return false;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return false;
  const year = hi * 100 + lo;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS[month]);
}

function dateTime(s) {
  return plainUtc(s) || full.validate(s);
}

module.exports = { ...fullFormats, 'date-time': { ...full, validate: dateTime } };
