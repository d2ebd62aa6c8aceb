// Who may grant trust: a person at an interactive prompt, and no one else. Each way a run can
// lack a person (--yes, --dry-run, --json, no terminal, trader mcp in any mode) is one row: a
// mutant that lets any of them grant trust fails here.
import { describe, expect, it } from 'vitest';
import { presence, type RunFacts } from '../../src/domain/presence.js';

const PERSON: RunFacts = { yes: false, dryRun: false, json: false, interactive: true, agent: false };

describe('presence', () => {
  it('a person at an interactive prompt may grant trust', () => {
    expect(presence(PERSON)).toEqual({ mayGrantTrust: true, why: null });
  });

  it.each([
    ['--yes', { yes: true }, /--yes asks no one/],
    ['--dry-run', { dryRun: true }, /a dry run pins nothing/],
    ['--json', { json: true }, /--json asks no one/],
    ['no terminal', { interactive: false }, /no terminal/],
    ['trader mcp (with its client able to answer)', { agent: true }, /trader mcp/],
    ['trader mcp --no-confirm (--yes)', { agent: true, yes: true }, /trader mcp/],
  ] as const)('%s: no trust is granted', (_name, over, why) => {
    const p = presence({ ...PERSON, ...over });
    expect(p.mayGrantTrust).toBe(false);
    expect(p.why).toMatch(why);
  });
});
