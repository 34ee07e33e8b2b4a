import { describe, expect, it } from 'vitest';
import { lookupRun, runKey } from '../src/delta.js';
import { uriPart } from '../static/dom.js';

// A JSON file can hold a lone surrogate ("\ud800") in an id; encodeURIComponent throws on one, which emptied the runs
// page and broke run pages (found by a browser sweep of hostile documents).
describe('ids a URL cannot carry', () => {
  const runs = [
    { dialect: 'ulpi', id: 'add-oauth\ud800' },
    { dialect: 'ulpi', id: 'plain' },
    { dialect: 'team', id: 'x\udc00y' },
  ];
  const byKey = new Map(runs.map((r) => [runKey(r as never), r]));

  it('should give every id a URI component, a lone surrogate as U+FFFD', () => {
    expect(() => encodeURIComponent('add-oauth\ud800')).toThrow(URIError);
    expect(uriPart('add-oauth\ud800')).toBe('add-oauth%EF%BF%BD');
    expect(uriPart('a/b c\u{1F600}')).toBe(encodeURIComponent('a/b c\u{1F600}'));
  });

  it('should find a run by its id as the URL carried it back', () => {
    for (const r of runs) {
      const back = decodeURIComponent(uriPart(r.id));
      expect(lookupRun(byKey, runs, r.dialect, back)).toBe(r);
    }
    expect(lookupRun(byKey, runs, 'team', 'add-oauth\uFFFD')).toBeUndefined();
    expect(lookupRun(byKey, runs, 'ulpi', 'missing\uFFFD')).toBeUndefined();
  });
});
