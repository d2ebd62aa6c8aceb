// A command printed for a person reaches what the run reached: the profile a flag chose (under MCP
// any but the default, since the client's args and env are not the person's shell) and, under MCP,
// the config file the client's env named; nothing added when the person's own shell already has it.
import { describe, expect, it } from 'vitest';
import { forPerson, personPrefix } from '../../src/domain/person-prefix.js';

const run = (profile: string, env: Record<string, string> = {}, agent = false) =>
  personPrefix({ profile, env, agent, configPath: '/h/my config.json' });

describe('personPrefix', () => {
  it("the profile: a flag's is carried, the default or the shell's own TRADER_PROFILE is not", () => {
    expect(run('sandbox')).toEqual({ env: '', options: '--profile sandbox ', profile: 'sandbox' });
    expect(run('default')).toEqual({ env: '', options: '' });
    expect(run('sandbox', { TRADER_PROFILE: 'sandbox' })).toEqual({ env: '', options: '' });
    expect(run('sandbox', { TRADER_PROFILE: 'other' })).toEqual({
      env: '',
      options: '--profile sandbox ',
      profile: 'sandbox',
    });
  });

  it("under MCP: any profile but the default, and the config file when the client's env named one", () => {
    expect(run('sandbox', { TRADER_PROFILE: 'sandbox' }, true)).toEqual({
      env: '',
      options: '--profile sandbox ',
      profile: 'sandbox',
    });
    expect(run('default', { TRADER_CONFIG: '/h/my config.json' }, true)).toEqual({
      env: "TRADER_CONFIG='/h/my config.json' ",
      options: '',
    });
    expect(run('default', { XDG_CONFIG_HOME: '/h' }, true).env).toBe("TRADER_CONFIG='/h/my config.json' ");
    expect(run('default', { TRADER_CONFIG: '/x' }, false).env).toBe('');
  });
});

describe('forPerson', () => {
  const prefix = { env: 'TRADER_CONFIG=/c.json ', options: '--profile sandbox ' };
  it('each trader command in the text, wherever it stands; options already given, trader sandbox, trader mcp and prose left alone', () => {
    expect(
      forPerson(
        'read it with `trader config trust`; if so, run: trader config trust accept-wording 0123456789abcdef',
        prefix,
      ),
    ).toBe(
      'read it with `TRADER_CONFIG=/c.json trader --profile sandbox config trust`; if so, run: TRADER_CONFIG=/c.json trader --profile sandbox config trust accept-wording 0123456789abcdef',
    );
    expect(forPerson('trader --profile x buy M 1sol', prefix)).toBe('trader --profile x buy M 1sol');
    expect(forPerson('start one with `eval "$(trader sandbox --background)"`', prefix)).toBe(
      'start one with `eval "$(trader sandbox --background)"`',
    );
    expect(forPerson('start one with `eval "$(trader sandbox --background)"`', { ...prefix, profile: 'sandbox' })).toBe(
      'start one with `eval "$(trader sandbox --background)"` (if profile "sandbox" was saved by a sandbox: `TRADER_CONFIG=/c.json trader sandbox --background --write-profile sandbox`)',
    );
    expect(forPerson('a trader, Trader X', prefix)).toBe('a trader, Trader X');
    expect(forPerson('an agent runs this trade (trader mcp)', prefix)).toBe('an agent runs this trade (trader mcp)');
    expect(forPerson('trader trades b1 --watch', { env: '', options: '' })).toBe('trader trades b1 --watch');
  });
});
