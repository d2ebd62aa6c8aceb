// `trader commands`: the command catalog (cli/catalog.ts), as JSON for programs or as a
// readable list.
import type { Context } from '../cli/context.js';
import type { Theme } from '../io/theme.js';
import { loadCatalog, type Catalog, type CatalogOption } from '../cli/catalog.js';
import { defineCommand, type NoOptions, type ProgramFacts } from '../cli/definition.js';
import { brakePath, readBrake } from '../config/brake-file.js';
import { lockWords, type BrakeLock } from '../domain/brake-rules.js';

export const commands = defineCommand<NoOptions>({
  // The catalog reads no setting: a profile holding a bad value must not hide it.
  lenient: true,
  examples: ['trader commands', "trader commands --json | jq -r '.commands[] | select(.dangerous) | .name'"],
  parse: () => ({}),
  run,
});

/** Prints the catalog. */
async function run(ctx: Context, _opts: NoOptions, program: ProgramFacts): Promise<void> {
  const catalog = await loadCatalog(program.commands, ctx.version);
  const brake = brakeInForce(ctx);
  ctx.output.result({ ...catalog, brake }, (theme) => `${renderCatalog(catalog, theme)}\n\n${brakeLines(brake)}`);
}

/** What holds every trade now: the lock (trader lock) and the profile's limits. */
function brakeInForce(ctx: Context) {
  const s = ctx.settings;
  let lock: BrakeLock | { error: string } | null;
  try {
    lock = readBrake(brakePath(ctx.config.path));
  } catch (err) {
    lock = { error: (err as Error).message };
  }
  const text = (v: bigint | null) => (v === null ? null : v.toString());
  return {
    lock,
    profile: s.profileName,
    limits: {
      maxBuyLamports: text(s.maxBuyLamports),
      maxSlippageBps: s.maxSlippageBps,
      maxFeeLamports: text(s.maxFeeLamports),
      maxDailyBuyLamports: text(s.maxDailyBuyLamports),
      maxDailySellLamports: text(s.maxDailySellLamports),
      maxTradesPerHour: s.maxTradesPerHour,
      maxDailyLossLamports: text(s.maxDailyLossLamports),
      allowedMints: s.allowedMints,
      deniedMints: s.deniedMints,
    },
  };
}

function brakeLines(brake: ReturnType<typeof brakeInForce>): string {
  const lock =
    brake.lock === null
      ? 'not locked'
      : 'error' in brake.lock
        ? `refusing: ${brake.lock.error}`
        : lockWords(brake.lock);
  const set = Object.entries(brake.limits).filter(([, v]) => v !== null);
  return [
    `In force now: ${lock}`,
    `Profile "${brake.profile}" limits: ${set.length ? set.map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(',') : v}`).join('; ') : 'none set'}`,
  ].join('\n');
}

function optionLine(o: CatalogOption): string {
  const flag = `${o.short ? `${o.short}, ` : ''}${o.flag}${o.valueName ? ` <${o.valueName}>` : ''}`;
  // `--no-wait … default true` read as if not waiting were the default: a negating flag says what it sets.
  const fallback = o.negates ? `sets ${o.name} to false` : o.default !== undefined && `default ${String(o.default)}`;
  const notes = [
    o.negates ? 'flag' : o.type,
    o.env && `env ${o.env}`,
    o.configKey && `config ${o.configKey}`,
    fallback,
    o.values && `one of ${o.values.join(',')}`,
  ]
    .filter(Boolean)
    .join('; ');
  return `    ${flag}  ${o.help} (${notes})`;
}

/** The catalog as a list: each command with its arguments and options, dangerous ones marked. */
export function renderCatalog(catalog: Catalog, theme: Theme): string {
  const lines: string[] = [];
  for (const c of catalog.commands) {
    const args = c.arguments.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' ');
    const marks = [c.dangerous && theme.failure('dangerous'), c.needsApiKey && 'API key', c.needsKeypair && 'keypair']
      .filter(Boolean)
      .join(', ');
    lines.push(`trader ${c.name}${args ? ` ${args}` : ''}${marks ? `  [${marks}]` : ''}`, `  ${c.summary}`);
    for (const a of c.arguments) lines.push(`    ${a.required ? `<${a.name}>` : `[${a.name}]`}  ${a.help}`);
    for (const o of c.options) lines.push(optionLine(o));
  }
  lines.push('', 'Global options (every command):', ...catalog.globalOptions.map(optionLine));
  return lines.join('\n');
}
