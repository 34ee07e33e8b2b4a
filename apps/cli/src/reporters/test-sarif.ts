// Test helper (excluded from the build): validates a SARIF log against the vendored SARIF 2.1.0 schema.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv04Module from 'ajv-draft-04';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';

// Both ship CommonJS; under NodeNext their default export is the module object.
const Ajv04 = Ajv04Module as unknown as typeof Ajv04Module.default;
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const schemaPath = resolve(import.meta.dirname, '../../test/vendor/sarif-2.1.0-rtm.5.json');
// The OASIS schema's language pattern is not valid with the u flag (a stray `]`): compile it without.
const ajv = new Ajv04({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validateSarif = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')));

/** Asserts that `text` is a SARIF 2.1.0 log (the OASIS schema, formats asserted) and returns it parsed. */
// biome-ignore lint/suspicious/noExplicitAny: a SARIF log is read field by field in tests
export function expectValidSarif(text: string): any {
  const log = JSON.parse(text);
  const ok = validateSarif(log);
  expect(ok ? [] : validateSarif.errors).toEqual([]);
  return log;
}

/** The schema's errors for a parsed log (empty when it is valid). */
export function sarifErrors(log: unknown) {
  return validateSarif(log) ? [] : (validateSarif.errors ?? []);
}
