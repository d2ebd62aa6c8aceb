// Declares every command, argument and option with its help. Command modules are imported
// only when their command runs, so `--help`, `--version` and light commands start fast.
import { Command, CommanderError, Option } from 'commander';
import type { Context, ProcessFacts } from './context.js';
import type { GlobalFlags } from './config/settings.js';
import { ACTIVITY_TYPES, POSITION_STATUSES } from './api/types.js';
import { PROFILE_KEYS } from './config/config-file.js';
import { UsageError } from './errors.js';

/** What an action needs to run: the flags of every level, merged. */
type Runner = (ctx: Context, args: string[], opts: Record<string, unknown>) => Promise<void>;

export interface ProgramHooks {
  facts: ProcessFacts;
  /** Remembers the flags as soon as they are parsed, so errors can be printed in the right mode. */
  onFlags(flags: GlobalFlags): void;
}

const CSV_HELP = 'RFC 4180 CSV on stdout: header row, raw and decimal amounts, formula-like text neutralised (not with --json)';

const PNL_METHOD = `
How it is computed (average cost per token):
  Cost basis  the SOL deposited for each buy (principalLamports, platform fee
              included), in USD at that buy's rate (its activity entry's
              usdValue / solLamports), to the cent.
  Sales       walked oldest first: a sale takes its share of the token's pooled
              cost (units sold / units held), rounded to the lamport and cent,
              halves away from zero; a sale that empties the pool takes all
              that is left, so rounding never adds or loses cost.
  Realized    proceeds at execution (the sell entry's solLamports, usdValue)
              minus that share.
  Unrealized  value now (the holding's usdValue) minus the cost basis of what
              is held, and as a % of it.
  Fees        principalLamports - costLamports of each buy.
  --since     realized P&L and fees count sells and buys from then on; a
              sale's cost still comes from the whole history.
  Unknown     a figure that cannot be known (a buy with no activity entry, a
              token with no USD price, activity and positions that disagree)
              reads "unknown" (null in --json), never a guess; totals add the
              known figures and are marked *.
  --json      raw units and lamports are integer strings with exact decimals
              beside them; USD and % are strings with two decimals (exact).
`;

/**
 * Commander reads every argument that starts with "-" as an option, so `buy <mint> -1sol` was
 * "unknown option '-1sol'". No option of ours is a digit or a point, so an argument that starts
 * with a minus and one of those (and is not an option's value) stays an argument, for the
 * amount parsers to refuse with the amount error.
 */
class TraderCommand extends Command {
  override createCommand(name?: string): Command {
    return new TraderCommand(name);
  }

  override parseOptions(args: string[]): { operands: string[]; unknown: string[] } {
    const takesValue = (arg: string | undefined) => {
      for (let c: Command | null = this; c; c = c.parent) if (c.options.some((o) => (o.long === arg || o.short === arg) && (o.required || o.optional))) return true;
      return false;
    };
    const held = args.map((arg, i) => (/^-[0-9.]/.test(arg) && !takesValue(args[i - 1]) ? HELD + arg : arg));
    const { operands, unknown } = super.parseOptions(held);
    const release = (list: string[]) => list.map((arg) => (arg.startsWith(HELD) ? arg.slice(HELD.length) : arg));
    return { operands: release(operands), unknown: release(unknown) };
  }
}
/** Marks a held argument while commander parses (a character no typed argument can hold). */
const HELD = '\u0000';

const examples = (...lines: string[]) => `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;

/** Builds the commander program. */
export function buildProgram(hooks: ProgramHooks): Command {
  const program = new TraderCommand('trader');
  program
    .description('Trade Solana tokens through the trading service, safely: nothing is signed until it is checked.')
    .version(hooks.facts.version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    // Not showHelpAfterError: it writes its line to stderr before the error, which breaks the
    // one-line error and, with --json, the promise that stderr holds only JSON lines.
    .exitOverride((err) => {
      if (err.exitCode === 0) throw err; // --help, --version
      // One line: commander puts "(Did you mean buy?)" on a line of its own.
      // `trader` alone prints the help to stderr and exits with "(outputHelp)": say what is wrong instead.
      const message = err.code === 'commander.help' ? 'no command given' : err.message.replace(/\s*\n\s*/g, ' ').trim();
      throw new CommanderError(err.exitCode, err.code, `${message} (run with --help for usage)`);
    })
    .configureOutput({
      writeOut: (s) => hooks.facts.stdout.write(s),
      // Commander writes to stderr only the help shown when a command is missing; with --json,
      // stderr holds JSON lines only (main.ts prints the error as one).
      writeErr: (s) => {
        if (!program.opts().json) hooks.facts.stderr.write(s);
      },
      outputError: () => {
        /* main.ts prints usage errors in the run's format (one line, or JSON) */
      },
    });

  program.optionsGroup('Connection options:');
  program
    .addOption(new Option('--base-url <url>', 'service root URL (env TRADER_BASE_URL)'))
    .addOption(new Option('--api-key <key>', 'API key; prefer env TRADER_API_KEY or the config file'))
    .addOption(new Option('--profile <name>', 'config profile to use (env TRADER_PROFILE, default "default")'))
    .addOption(new Option('--request-timeout <seconds>', 'timeout of each HTTP request in seconds (default 30)'))
    .addOption(new Option('--insecure', 'allow plain http:// to hosts other than this machine'));
  program.optionsGroup('Wallet options:');
  program
    .addOption(new Option('--keypair <path>', 'owner wallet keypair file (env TRADER_KEYPAIR, default ~/.config/solana/id.json)'))
    .addOption(new Option('--treasury <address>', "pin the service's deposit address (env TRADER_TREASURY)"));
  program.optionsGroup('Output options:');
  program
    .addOption(new Option('--json', 'machine output: one JSON document on stdout'))
    .addOption(new Option('-y, --yes', 'answer yes to confirmations (required to trade when not interactive)'))
    .addOption(new Option('--timeout <seconds>', 'how long buy, sell and --watch wait for a final status (env TRADER_TIMEOUT, default 900)'))
    .addOption(new Option('--no-color', 'no colours (also NO_COLOR)'))
    .addOption(new Option('-v, --verbose', 'log each HTTP request to stderr, API key redacted (also TRADER_DEBUG=1)'));
  program.optionsGroup('Options:');

  // `lenient`: the config commands run even when the profile holds a value they would refuse.
  const run = (load: () => Promise<{ run: Runner }>, lenient = false) =>
    async function (this: Command, ...received: unknown[]) {
      const command = received[received.length - 1] as Command;
      const opts = command.optsWithGlobals() as Record<string, unknown>;
      hooks.onFlags(opts as GlobalFlags);
      const args = command.args.slice(0, command.registeredArguments.length);
      const [{ createContext }, module] = await Promise.all([import('./context.js'), load()]);
      const ctx = await createContext(opts as GlobalFlags, hooks.facts, { lenient });
      await module.run(ctx, args, command.opts());
    };

  // Trading
  program.commandsGroup('Trading:');
  program
    .command('buy')
    .description('buy a token with SOL: create, check, confirm, sign the deposit, follow until done')
    .argument('<token>', 'token mint address, or the symbol or mint prefix (8+ characters) of a token you have held or traded')
    .argument('<amount>', 'SOL to spend: lamports (100000000) or SOL with a suffix (0.1sol)')
    .option('--slippage-bps <bps>', 'slippage tolerance in basis points, 0-10000 (100 = 1%)')
    .option('--idempotency-key <key>', 'resume or repeat safely: the same key never buys twice')
    .option('--max-fee-lamports <lamports>', 'refuse a deposit whose network fee exceeds this (default 100000)')
    .option('--no-wait', 'stop once the deposit is accepted; follow later with `trader trades <id> --watch`')
    .option('--dry-run', 'quote and check everything, show what would be signed, sign nothing')
    .addHelpText('after', examples('trader buy <mint> 0.1sol', 'trader buy BONK 250000000 --slippage-bps 50 --yes --json', 'trader buy <mint> 0.5sol --dry-run'))
    .action(run(() => import('./commands/buy.js')));
  program
    .command('sell')
    .description('sell a token for SOL: create, check, confirm, sign the message, follow until done')
    .argument('<token>', 'token mint address, or the symbol or mint prefix (8+ characters) of a current holding')
    .argument('<amount>', 'raw token units, "all", or a percentage of the holding ("50%")')
    .option('--slippage-bps <bps>', 'slippage tolerance in basis points, 0-10000 (100 = 1%)')
    .option('--idempotency-key <key>', 'resume or repeat safely: the same key never sells twice')
    .option('--min-sol <sol>', 'refuse to sign a minimum below this many SOL')
    .option('--no-wait', 'stop once the authorization is accepted')
    .option('--dry-run', 'quote and check everything, show the message, sign nothing')
    .addHelpText('after', examples('trader sell BONK 50%', 'trader sell <mint> all --min-sol 0.2 --yes --json', 'trader sell <mint> 1000000 --dry-run'))
    .action(run(() => import('./commands/sell.js')));
  program
    .command('cancel')
    .description('cancel a buy that is still awaiting its deposit')
    .argument('<buyId>', 'buy intent id (uuid), or its first 8+ characters')
    .addHelpText('after', examples('trader cancel 3f0c2a9e-1b2c-4d5e-8f90-0123456789ab', 'trader cancel 3f0c2a9e --json'))
    .action(run(() => import('./commands/cancel.js')));

  // Reading
  program.commandsGroup('Reading:');
  program
    .command('trades')
    .description('show one trade (a buy id, a sell_… id or a sell group key); --watch follows it')
    .argument('<id>', 'buy intent id (or its first 8+ characters), sell authorization id (sell_…) or trade id')
    .option('--watch', 'follow the trade until it is final')
    .option('--interval <seconds>', 'seconds between status reads while watching, at least 2', '3')
    .addHelpText('after', examples('trader trades <buyId>', 'trader trades sell_abc123 --watch', 'trader trades <id> --watch --json --timeout 600'))
    .action(run(() => import('./commands/trades.js')));
  program
    .command('positions')
    .description('list positions, or show one')
    .argument('[id]', 'position id to show, or its first 8+ characters')
    .option('--status <status>', 'only positions in this status (open, closed, …)')
    .option('--limit <n>', 'items per page, 1-100 (default 25)')
    .option('--cursor <cursor>', 'continue from a previous page')
    .option('--all', 'follow every page')
    .option('--csv', CSV_HELP)
    .option('--wide', 'every column in full, however wide the terminal')
    .addHelpText('after', examples('trader positions', 'trader positions --status open --all --json', 'trader positions 3f0c2a9e', 'trader positions --all --csv > positions.csv'))
    .action(run(() => import('./commands/positions.js')));
  program
    .command('activity')
    .description('list account activity, newest first')
    .option('--type <types>', 'comma-separated: buy,sell,deposit,payout,refund')
    .option('--limit <n>', 'items per page, 1-100 (default 25)')
    .option('--cursor <cursor>', 'continue from a previous page')
    .option('--all', 'follow every page')
    .option('--csv', CSV_HELP)
    .option('--wide', 'every column in full, however wide the terminal')
    .addHelpText('after', examples('trader activity', 'trader activity --type buy,sell --limit 50', "trader activity --all --json | jq '.[].points'", 'trader activity --all --csv > trades.csv'))
    .action(run(() => import('./commands/activity.js')));
  program
    .command('holdings')
    .description('tokens held for you by the service, by USD value, with each share and a total')
    .option('--csv', CSV_HELP)
    .option('--wide', 'every column in full, however wide the terminal')
    .addHelpText('after', examples('trader holdings', "trader holdings --json | jq '.[] | {symbol, amount}'", 'trader holdings --csv > holdings.csv'))
    .action(run(() => import('./commands/holdings.js')));
  program
    .command('pnl')
    .description('profit and loss per token and in total: cost basis, value now, unrealized and realized P&L, fees')
    .option('--token <token>', 'only this token: a mint, or the symbol of a token you hold or traded')
    .option('--since <date>', 'count realized P&L and fees from this date (2026-01-01, local time) or ISO date-time')
    .option('--csv', CSV_HELP)
    .addHelpText('after', PNL_METHOD + examples('trader pnl', 'trader pnl --token WOOF --since 2026-01-01', "trader pnl --json | jq -r '.tokens[] | [.symbol, .unrealizedUsd] | @tsv'", 'trader pnl --csv > pnl.csv'))
    .action(run(() => import('./commands/pnl.js')));
  program
    .command('me')
    .description('your account, wallet and API key (prefix and scopes only)')
    .addHelpText('after', examples('trader me', 'trader me --json | jq -r .walletAddress'))
    .action(run(() => import('./commands/me.js')));
  program
    .command('points')
    .description('points earned, volume and leaderboard rank')
    .addHelpText('after', examples('trader points', 'trader points --json | jq .totalPoints'))
    .action(run(() => import('./commands/points.js')));

  // Setup
  program.commandsGroup('Setup:');
  const config = program
    .command('config')
    .description('manage the config file (profiles, URL, key, keypair, limits)')
    .addHelpText('after', examples('trader config init', 'trader config set maxBuyLamports 500000000', 'trader --profile staging config list'));
  config
    .command('init')
    .description('ask for URL, API key and keypair, check the key with the service, save (mode 0600)')
    .addHelpText('after', examples('trader config init', 'trader --profile staging config init'))
    .action(run(() => import('./commands/config.js').then((m) => ({ run: m.init })), true));
  config
    .command('get')
    .description('print one setting of the profile (the API key masked)')
    .argument('<key>', 'baseUrl, apiKey, keypair, treasury, timeout, requestTimeout, maxBuyLamports, maxSlippageBps, maxFeeLamports')
    .addHelpText('after', examples('trader config get baseUrl'))
    .action(run(() => import('./commands/config.js').then((m) => ({ run: m.get })), true));
  config
    .command('set')
    .description('set one setting of the profile')
    .argument('<key>', 'baseUrl, apiKey, keypair, treasury, timeout, requestTimeout, maxBuyLamports, maxSlippageBps, maxFeeLamports')
    .argument('<value>', 'the value ("" to remove)')
    .addHelpText('after', examples('trader config set maxBuyLamports 500000000', 'trader config set treasury <address>'))
    .action(run(() => import('./commands/config.js').then((m) => ({ run: m.set })), true));
  config
    .command('list')
    .description('print every setting of the profile (the API key masked)')
    .action(run(() => import('./commands/config.js').then((m) => ({ run: m.list })), true));
  config
    .command('path')
    .description('print where the config file is')
    .action(run(() => import('./commands/config.js').then((m) => ({ run: m.path })), true));
  const trust = config
    .command('trust')
    .description("what is pinned for the configured service: its treasury and its sell-message wording (trust.json beside the config)")
    .addHelpText('after', examples('trader config trust', 'trader config trust accept-wording 3f9a1c0d2b7e4a51', 'trader config trust forget treasury'))
    .action(run(() => import('./commands/trust.js').then((m) => ({ run: m.show })), true));
  trust
    .command('show')
    .description('show the pins of the configured service, and a changed sell wording waiting to be accepted')
    .action(run(() => import('./commands/trust.js').then((m) => ({ run: m.show })), true));
  trust
    .command('accept-wording')
    .description('pin the changed sell wording a refused sell kept, once you have read it (`trader config trust`)')
    .argument('<fingerprint>', 'the wording fingerprint the refusal named')
    .action(run(() => import('./commands/trust.js').then((m) => ({ run: m.acceptWording })), true));
  trust
    .command('forget')
    .description('forget the pinned treasury or sell wording, so the next trade pins it again')
    .argument('<what>', 'treasury or wording')
    .action(run(() => import('./commands/trust.js').then((m) => ({ run: m.forget })), true));
  program
    .command('sandbox')
    .description('run a local simulated service to try the tool or rehearse scripts (no account needed)')
    .option('--port <n>', 'port to listen on (0 = any free port)', '8787')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--state <file>', 'keep state in this file across restarts')
    .option('--no-history', 'start with no trades (by default a fresh account has a few days of buys and sells)')
    // The global --keypair, listed here too: for the sandbox it is the wallet of its account.
    .option('--keypair <path>', 'wallet of the sandbox account (default: a new keypair in a temp file, removed on stop)')
    .option('--balance-sol <sol>', "SOL in the account's wallet at the start; deposits beyond it are refused", '100')
    .addHelpText('after', examples('trader sandbox', 'trader sandbox --port 0 > sandbox.env & sleep 1; . ./sandbox.env', 'trader sandbox --state ./sandbox.json --keypair ./wallet.json', 'trader sandbox --no-history'))
    .action(
      run(async () => {
        const [{ runSandboxCommand }, { parseSolToLamports }] = await Promise.all([import('./commands/sandbox.js'), import('./amounts.js')]);
        return {
          run: (ctx, _args, opts) =>
            runSandboxCommand(
              {
                port: parsePort(String(opts.port)),
                host: String(opts.host),
                state: opts.state as string | undefined,
                keypair: program.opts().keypair as string | undefined,
                history: opts.history !== false,
                balanceLamports: parseSolToLamports(String(opts.balanceSol), '--balance-sol'),
              },
              ctx.terminal,
              ctx.signal,
            ),
        };
      }),
    );

  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish)')
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText('after', examples('eval "$(trader completion bash)"   # in ~/.bashrc', 'trader completion fish > ~/.config/fish/completions/trader.fish'))
    .action(
      run(async () => {
        const completion = await import('./commands/completion.js');
        return { run: (ctx, args) => completion.run(ctx, args, completionSpec(program)) };
      }),
    );

  return program;
}

/** What the completion scripts offer, read from the declared commands and options. */
function completionSpec(program: Command): import('./commands/completion.js').CompletionSpec {
  const longNames = (cmd: Command) => cmd.options.map((o) => o.long).filter((l): l is string => Boolean(l));
  return {
    globalOptions: longNames(program),
    commands: program.commands.map((c) => ({ name: c.name(), options: longNames(c), subcommands: c.commands.map((s) => s.name()) })),
    valuesAfter: {
      '--status': [...POSITION_STATUSES],
      '--type': [...ACTIVITY_TYPES],
      get: [...PROFILE_KEYS],
      set: [...PROFILE_KEYS],
    },
    argumentValues: { completion: ['bash', 'zsh', 'fish'] },
  };
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) throw new UsageError(`--port must be 0-65535, got "${value}"`);
  return port;
}
