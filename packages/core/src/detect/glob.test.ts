import { describe, expect, it } from 'vitest';
import { matchCatalog } from './catalog.js';
import { globToRegExp } from './glob.js';

describe('globToRegExp', () => {
  it('should match ** across folders and * within one', () => {
    const re = globToRegExp('**/.team/runs/*/run.json');
    expect(re.test('/home/x/proj/.team/runs/20261028T131016577943Z-20fe61/run.json')).toBe(true);
    expect(re.test('.team/runs/r1/run.json')).toBe(true);
    expect(re.test('/p/.team/runs/r1/events/run.json')).toBe(false);
    expect(re.test('/p/x.team/runs/r1/run.json')).toBe(false);
  });
});

describe('matchCatalog', () => {
  it('should detect every dialect by path', () => {
    expect(matchCatalog('/p/.team/runs/r/events/e.json')?.kind).toBe('team/task-event');
    expect(matchCatalog('/p/.ulpi/runs/run-1.json')?.kinds).toEqual(['ulpi/status-v1', 'ulpi/status-v2']);
    expect(matchCatalog('/p/.ulpi/runs/run-1.events.jsonl')?.kind).toBe('ulpi/event-log-line');
    expect(matchCatalog('/p/.agent-context/orchestrator/r/state.json')?.kind).toBe(
      'agent-context/orchestrator-state',
    );
    expect(matchCatalog('/p/.agent-context/runs/t/state.json')?.kind).toBe('agent-context/task-state');
    expect(matchCatalog('/c/reports/t-20261128T101500Z/checklist.state.env')?.kind).toBe(
      'resumable/checklist-env',
    );
  });

  it('should not claim other documents in the same folders', () => {
    expect(matchCatalog('/p/.agent-context/runs/t/run.json')).toBeUndefined();
    expect(matchCatalog('/p/.ulpi/runs/run-1.json.tmp.123')).toBeUndefined();
    expect(matchCatalog('/p/package.json')).toBeUndefined();
  });
});
