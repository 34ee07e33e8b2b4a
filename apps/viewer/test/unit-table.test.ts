import { describe, expect, it } from 'vitest';
// @ts-expect-error the client is plain JS (checked with its JSDoc types by tsc --checkJs), served as is
import { timelineFromText, timelineTable } from '../static/timeline-table.js';
// @ts-expect-error the client is plain JS (checked with its JSDoc types by tsc --checkJs), served as is
import { splitUnits, UnitTable } from '../static/unit-table.js';

/** A slim unit as the server sends it (optional fields left out, as slim.ts does). */
function unit(i: number, status = 'completed') {
  return {
    id: `t${String(i).padStart(5, '0')}`,
    status,
    tone: status === 'completed' ? 'ok' : 'active',
    dependsOn: i ? [`t${String(i - 1).padStart(5, '0')}`] : [],
    ...(i % 3 ? { startedAt: '2026-11-20T08:04:06Z', durationMs: i } : {}),
    attempts: [{ attempt: 1, status, tone: 'ok', startedAt: '2026-11-20T08:04:06.5+01:00' }],
    slim: true,
  };
}

describe('UnitTable: a run’s slim units as ids, statuses and JSON text', () => {
  it('should give back each unit as the server sent it, by index, and find units by id', () => {
    const t = new UnitTable();
    const first = [0, 1, 2].map((i) => unit(i));
    const rest = [3, 4, 5, 6].map((i) => unit(i, i === 5 ? 'running "now" — ✓' : 'completed'));
    t.append(first);
    t.append(rest);
    expect(t.length).toBe(7);
    [...first, ...rest].forEach((u, i) => expect(t.get(i)).toEqual(u));
    expect(t.get(7)).toBeUndefined();
    expect(t.indexOf('t00005')).toBe(5);
    expect(t.indexOf('nope')).toBe(-1);
    expect(t.statuses[5]).toBe('running "now" — ✓');
    // One string per status, however many units have it.
    expect(new Set(t.statuses).size).toBe(2);
  });

  it('should replace units in place (a live change) and let go of the text no unit points into', () => {
    const t = new UnitTable();
    t.append([0, 1, 2, 3].map((i) => unit(i)));
    const changed = { ...unit(2, 'failed'), attempts: [] };
    t.put([changed], [2]);
    expect(t.get(2)).toEqual(changed);
    expect(t.get(1)).toEqual(unit(1));
    expect(t.statuses[2]).toBe('failed');
    // Replacing every unit many times: the text held stays about what the units need.
    for (let round = 0; round < 100; round++) t.put([unit(round % 4, `s${round}`)], [round % 4]);
    const held = t.texts.reduce((n: number, s: string) => n + s.length, 0);
    const live = [0, 1, 2, 3].reduce((n, i) => n + JSON.stringify(t.get(i)).length, 0);
    expect(held).toBeLessThanOrEqual(2 * live);
    expect(t.texts.length).toBeLessThanOrEqual(64);
    for (let i = 0; i < 4; i++) expect(t.get(i)).toEqual(unit(i, `s${96 + i}`));
  });
});

describe('splitUnits: a page of units read from its text', () => {
  it('should find each unit in a page as the server writes it and hold them as append does', () => {
    const units = [0, 1, 2, 3, 4, 5].map((i) =>
      unit(i, i === 2 ? 'run "x" \\ [{}] — ✓' : i === 4 ? 'units":[' : 'completed'),
    );
    (units[3] as Record<string, unknown>).checks = [{ id: 'c}"{', done: true }, { done: false }];
    const text = JSON.stringify({ formatVersion: '1', total: 9, offset: 3, units });
    const split = splitUnits(text);
    expect(split?.doc).toEqual({ formatVersion: '1', total: 9, offset: 3, units: [] });
    const t = new UnitTable();
    t.append([unit(9)]);
    t.appendText(text, split?.spans);
    const u = new UnitTable();
    u.append([unit(9), ...units]);
    expect(t.length).toBe(7);
    expect(t.ids).toEqual(u.ids);
    expect(t.statuses).toEqual(u.statuses);
    for (let i = 0; i < 7; i++) expect(t.get(i)).toEqual(u.get(i));
    expect(t.indexOf('t00004')).toBe(5);
  });

  it('should read a unit whose first fields are not its id and status by parsing it', () => {
    const units = [
      { status: 'failed', id: 'b' },
      { id: 'a\u00e9"', status: 3 },
      { id: 'c', status: 'x\\"' },
    ];
    const text = JSON.stringify({ units, total: 3 });
    const split = splitUnits(text);
    const t = new UnitTable();
    t.appendText(text, split?.spans);
    expect(t.ids).toEqual(['b', 'a\u00e9"', 'c']);
    expect(t.statuses).toEqual(['failed', 3, 'x\\"']);
    units.forEach((x, i) => expect(t.get(i)).toEqual(x));
  });

  it('should answer undefined for text it cannot split (the caller parses it whole)', () => {
    for (const text of [
      '{"total":1, "units": [{"id":"a"}]}',
      '{"total":1,"units":[{"id":"a"}]',
      '{"total":1,"units":[1]}',
      '{"total":1,"units":[{"id":"a}]}',
      '{"total":1}',
      '[{"units":[]}]',
      '{"total":1,"units":[{"id":"a"}]}}',
      '',
    ])
      expect(splitUnits(text)).toBeUndefined();
    expect(splitUnits('{"total":0,"units":[]}')).toEqual({ doc: { total: 0, units: [] }, spans: [] });
  });
});

describe('timelineTable: the timeline document as columns', () => {
  it('should hold every row and bar, an open bar as NaN, each tone once', () => {
    const doc = {
      lo: 1000,
      hi: 9000,
      rows: [
        { id: 'build', kind: 'phase', status: 'done', tone: 'ok', bars: [[1000, 9000, 'ok']] },
        { id: 't1', kind: 'unit', index: 0, status: 'running', tone: 'active', bars: [] },
        {
          id: 't2',
          kind: 'unit',
          index: 1,
          status: 'running',
          tone: 'active',
          bars: [
            [2000, 3000, 'error'],
            [3500, null, 'active'],
          ],
        },
      ],
    };
    const t = timelineTable(doc);
    expect(t.n).toBe(3);
    expect([t.lo, t.hi]).toEqual([1000, 9000]);
    expect(t.ids).toEqual(['build', 't1', 't2']);
    expect(t.kinds).toEqual(['phase', 'unit', 'unit']);
    expect(t.statuses).toEqual(['done', 'running', 'running']);
    expect([...t.first]).toEqual([0, 1, 1, 3]);
    expect([...t.start]).toEqual([1000, 2000, 3500]);
    expect([...t.end.slice(0, 2)]).toEqual([9000, 3000]);
    expect(Number.isNaN(t.end[2])).toBe(true);
    expect([...t.tone].map((k) => t.tones[k])).toEqual(['ok', 'error', 'active']);
    expect(timelineTable({ rows: [] }).first[0]).toBe(0);
  });

  it('should make the same columns from the document’s text, a row at a time, whatever its shape', () => {
    const rows = Array.from({ length: 40 }, (_, i) => ({
      id: i === 3 ? 'a "quoted" id, with [brackets] and {braces} \\ ✓' : `t${i}`,
      kind: i < 2 ? 'phase' : 'unit',
      index: i,
      status: i % 7 ? 'completed' : 'running',
      tone: i % 7 ? 'ok' : 'active',
      // Up to 12 bars a row: more than the columns' first guess, so they grow.
      bars: Array.from({ length: i % 13 }, (_, j) => [
        1000 + i * 10 + j,
        j % 4 ? 1005 + i * 10 + j : null,
        j % 3 ? 'ok' : 'error',
      ]),
    }));
    const doc = {
      formatVersion: 2,
      run: { dialect: 'team', id: 'r' },
      lo: 1000,
      hi: 9000,
      fromHistory: 0,
      rows,
    };
    const plain = (t: {
      first: Iterable<number>;
      start: Iterable<number>;
      end: Iterable<number>;
      tone: Iterable<number>;
    }) => ({
      ...t,
      first: [...t.first],
      start: [...t.start],
      end: [...t.end],
      tone: [...t.tone],
    });
    for (const text of [
      JSON.stringify(doc),
      JSON.stringify(doc, null, 2),
      JSON.stringify({ rows, lo: 1000, hi: 9000 }),
    ])
      expect(plain(timelineFromText(text))).toEqual(plain(timelineTable(doc)));
    expect(plain(timelineFromText('{"lo":1,"hi":2,"rows":[]}'))).toEqual(
      plain(timelineTable({ lo: 1, hi: 2, rows: [] })),
    );
    // Not an array of objects where the rows are: parsed whole.
    expect(
      timelineFromText(
        '{"lo":1,"hi":2,"rows":[null]}'.replace(
          'null',
          '{"id":"x","kind":"unit","status":"s","bars":[[1,2,"ok"]]}',
        ),
      ).n,
    ).toBe(1);
    expect(() => timelineFromText('{"rows":[1]}')).toThrow();
  });
});
