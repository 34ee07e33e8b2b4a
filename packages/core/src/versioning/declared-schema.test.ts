import { describe, expect, it } from 'vitest';
import { parseJson } from '../parse/json.js';
import { checkDeclaredSchema, parseSchemaId } from './declared-schema.js';

const known = 'https://ckpt.dev/schemas/team/run/1.2.json';
const verdict = (schema: unknown) => {
  const text = `{\n  "$schema": ${JSON.stringify(schema)},\n  "run_id": "x"\n}\n`;
  const p = parseJson(text, 'run.json');
  return checkDeclaredSchema(p.value, known, 'run.json', p.sourceMap);
};

describe('parseSchemaId', () => {
  it('should take a ckpt $id apart and refuse anything else', () => {
    expect(parseSchemaId('https://ckpt.dev/schemas/ulpi/status-v2/1.0.json')).toEqual({
      kind: 'ulpi/status-v2',
      major: 1,
      minor: 0,
    });
    expect(parseSchemaId('https://json-schema.org/draft/2020-12/schema')).toBeUndefined();
  });
});

describe('checkDeclaredSchema', () => {
  it('should read the same or an older minor silently', () => {
    expect(verdict('https://ckpt.dev/schemas/team/run/1.2.json')).toEqual({ readable: true, findings: [] });
    expect(verdict('https://ckpt.dev/schemas/team/run/1.0.json')).toEqual({ readable: true, findings: [] });
  });

  it('should warn on a newer minor and still read the document', () => {
    const v = verdict('https://ckpt.dev/schemas/team/run/1.5.json');
    expect(v.readable).toBe(true);
    expect(v.findings).toEqual([
      expect.objectContaining({
        code: 'schema/newer-minor',
        severity: 'warning',
        line: 2,
        pointer: '/$schema',
      }),
    ]);
  });

  it('should refuse another major with an error', () => {
    for (const id of [
      'https://ckpt.dev/schemas/team/run/2.0.json',
      'https://ckpt.dev/schemas/team/run/0.9.json',
    ]) {
      const v = verdict(id);
      expect(v.readable).toBe(false);
      expect(v.findings).toEqual([
        expect.objectContaining({ code: 'schema/unsupported-major', severity: 'error', line: 2 }),
      ]);
    }
  });

  it('should leave foreign or other-kind $schema values alone', () => {
    expect(verdict('https://example.com/s.json').findings).toEqual([]);
    expect(verdict('https://ckpt.dev/schemas/team/approval/9.0.json').findings).toEqual([]);
    expect(verdict(42).findings).toEqual([]);
  });
});
