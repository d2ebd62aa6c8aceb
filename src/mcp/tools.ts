// The MCP tools: which command each runs, which of its options an agent may not pass, and the
// input schema and argv of a call, both made from the command catalog (cli/catalog.ts), so
// the tools' names, types and help are the CLI's own.
import type { Catalog, CatalogArgument, CatalogCommand, CatalogOption } from '../cli/catalog.js';
import { UsageError } from '../domain/errors.js';

export interface ToolSpec {
  /** The tool's name. */
  name: string;
  /** The command it runs (`trades`, `buy`). */
  command: string;
  /** Options of the command not offered: output formats, following, and limits an agent must not raise. */
  omit?: readonly string[];
  /** Moves money: offered only when trading is allowed, and run under its rules. */
  trade?: boolean;
  /** Signs (buy, sell): the person approves its review through the client, unless --no-confirm. */
  signs?: boolean;
  /** Calling it again with the same arguments changes nothing more (cancel): the idempotentHint. */
  idempotent?: boolean;
  /** Options that take a comma-separated list of their values (activity's type), not one of them. */
  lists?: readonly string[];
  /** Arguments the command may go without but the tool may not (`trade` reads one trade; the list is another use). */
  requires?: readonly string[];
  /** What the tool does, written for an agent calling it (not the CLI's summary: no flags, no --watch). */
  does: string;
  /** Argument help written for the tool where the command's speaks of the CLI (flags, exit codes, following with --watch). */
  help?: Readonly<Record<string, string>>;
}

/** List options as a tool takes them. */
const PAGES = {
  limit: 'items per page, 1-100 (the service default 25)',
  cursor: 'the pagination.nextCursor of the previous result, for the next page',
  all: 'true: every page in one result',
};

/** What buy and sell take alike, as an agent passes it. */
const TRADE_HELP = {
  slippageBps: "slippage tolerance in basis points (100 = 1%), 0-10000; default and cap: the profile's maxSlippageBps",
  idempotencyKey:
    'the key a retry passes to resume this same trade (never a second one); made and returned when none is given',
};

/**
 * The read tools. Each is one line: a command `trader balance` gets its tool with
 * `{ name: 'balance', command: 'balance' }`.
 */
export const READ_TOOLS: readonly ToolSpec[] = [
  {
    name: 'me',
    command: 'me',
    does: "The account: its id, main wallet, and the API key's name, display prefix and scopes (never the key)",
  },
  {
    name: 'points',
    command: 'points',
    does: 'Points earned, executed volume counted for points, and leaderboard rank',
  },
  {
    name: 'balance',
    command: 'balance',
    does: "The wallet's SOL balance, read from the Solana chain (not from the service)",
    help: {
      tokens:
        "true: also the wallet's own balance of each token the account has held or traded (not the service's holdings)",
    },
  },
  {
    name: 'token',
    command: 'token',
    does: "A token's facts as the chain states them (program, decimals, supply, mint and freeze authorities, metadata and whether it can change, every Token-2022 extension) and its risks: refuse-level ones a person must accept before a buy, warn-level ones said",
    help: { token: 'the mint address, or the symbol of a token the account has held or traded' },
  },
  {
    name: 'holdings',
    command: 'holdings',
    omit: ['csv', 'wide'],
    does: "Tokens the service holds for the account, largest USD value first, with each one's share",
  },
  {
    name: 'positions',
    command: 'positions',
    omit: ['csv', 'wide'],
    does: 'Positions: a page of them (filter by status), or one by id',
    help: PAGES,
  },
  {
    name: 'activity',
    command: 'activity',
    omit: ['csv', 'wide'],
    lists: ['type'],
    does: "The account's ledger of buys, sells, deposits, payouts and refunds, newest first",
    help: PAGES,
  },
  // Following a trade is the agent's loop to run (call again), not a call that blocks.
  {
    name: 'trade',
    command: 'trades',
    omit: ['watch', 'interval', 'limit', 'wide', 'csv'],
    requires: ['id'],
    does: "One trade: SOL and tokens in and out, every signature, any failure or refund, as the service reports it: under `trade` (a sell_… id: `authorization` and `sell`). To follow a trade, call again until it reads terminal (status: true reads the compact form). Only verify: true adds the tool's own chain verdict, as top-level `verification`",
    help: {
      id: 'a buy id or a position id (its buy), or the first 8+ characters of either; a sell_… id; or a sell trade id',
      status: 'true: only the compact status (stage, terminal, signatures); not for sell_… ids',
      verify:
        'true: check every signature the trade names against the chain; an error when the chain contradicts the service or cannot be read',
    },
  },
  {
    name: 'pnl',
    command: 'pnl',
    omit: ['csv'],
    does: 'Profit and loss per token and in total (average cost): cost, value now, realized and unrealized P&L, fees',
  },
];

/**
 * The brake, offered always (with or without --allow-trading): pulling it needs no person, so an
 * agent that sees something wrong may stop every trader process. There is no unlock tool: only a
 * person at a terminal lifts it.
 */
export const BRAKE_TOOLS: readonly ToolSpec[] = [
  {
    name: 'lock',
    command: 'lock',
    does: 'Pulls the brake: from now on every trader process (this server included) refuses to sign any buy or sell, until a person at a terminal runs `trader unlock`; there is no tool to unlock',
    help: { reason: 'why, in one line: every refusal shows it to whoever reads it' },
  },
];

/**
 * The trade tools, offered only with --allow-trading and the profile's limits. The network-fee
 * cap is the profile's or the default: an agent cannot raise it.
 */
export const TRADE_TOOLS: readonly ToolSpec[] = [
  {
    name: 'buy',
    command: 'buy',
    omit: ['maxFeeLamports'],
    trade: true,
    signs: true,
    does: 'Buys a token with SOL: gets the quote, checks the deposit transaction, signs it and follows the buy until it is final',
    help: {
      ...TRADE_HELP,
      token: 'the mint (or its first 8+ characters), or the symbol of a token the account has held or traded',
      amount: 'the SOL to spend: lamports ("100000000") or SOL with the suffix sol ("0.1sol")',
      wait: 'false: return once the deposit is accepted, and follow the buy with the trade tool',
      dryRun: "true: quote and check everything, sign nothing (the quote's buy intent is cancelled)",
    },
  },
  {
    name: 'sell',
    command: 'sell',
    omit: ['maxFeeLamports'],
    trade: true,
    signs: true,
    does: 'Sells a token for SOL: gets the quote, checks the message to sign, signs it and follows the sell until it is final',
    help: {
      ...TRADE_HELP,
      token: 'the mint (or its first 8+ characters), or the symbol of a holding',
      amount:
        'raw token units ("1500000"), whole tokens with the symbol or "tokens" as suffix ("1.5sgld", "1.5tokens"), "all", or a percentage of the holding ("50%")',
      minSol: 'refuse to sign a minimum below this many SOL (checked on the quote, before anyone is asked)',
      wait: 'false: return once the authorization is accepted, and follow the sell with the trade tool',
      dryRun: "true: quote and check everything, sign nothing (the quote's authorization is left to expire)",
    },
  },
  {
    name: 'cancel',
    command: 'cancel',
    trade: true,
    idempotent: true,
    does: 'Cancels a buy still awaiting its deposit; signs nothing',
    help: { buyId: 'the buy id, or its first 8+ characters' },
  },
];

/** A JSON Schema property. */
interface JsonSchemaProperty {
  type: 'string' | 'boolean' | 'integer' | 'number';
  description: string;
  default?: string | number | boolean;
  enum?: string[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
}

/**
 * The ranges the commands' parsers hold integer options to (parseLimit in
 * cli/argument-parsers.ts, parseSlippageBps in config/profile-values.ts), stated in the schema.
 */
const RANGES: Readonly<Record<string, { minimum: number; maximum: number }>> = {
  limit: { minimum: 1, maximum: 100 },
  slippageBps: { minimum: 0, maximum: 10_000 },
};

/** An amount in lamports (`maxDailyBuyLamports`): a string of digits, as every lamport amount the tools read and write (a u64 passes 2^53); a JSON integer is accepted too. */
const isLamports = (name: string) => /Lamports$/.test(name);

export interface ToolInputSchema {
  type: 'object';
  properties: Record<string, JsonSchemaProperty>;
  required?: string[];
  additionalProperties: false;
}

/** A tool with the command it runs as the catalog describes it. */
export interface Tool {
  spec: ToolSpec;
  command: CatalogCommand;
  /** The options offered (the command's, less the omitted). */
  options: CatalogOption[];
  inputSchema: ToolInputSchema;
}

/** The tools of these specs, from the catalog; a spec naming a command the catalog lacks is a bug. */
export function toolsFrom(catalog: Catalog, specs: readonly ToolSpec[]): Tool[] {
  return specs.map((spec) => {
    const command = catalog.commands.find((c) => c.name === spec.command && c.runs);
    if (!command) throw new Error(`MCP tool ${spec.name}: no command ${spec.command} in the catalog`);
    // The help an agent reads is the tool's: where the command's speaks of the CLI, the spec's own.
    const forTool = <T extends { name: string; help: string }>(item: T): T => ({
      ...item,
      help: spec.help?.[item.name] ?? item.help,
    });
    const options = command.options.filter((o) => !(spec.omit ?? []).includes(o.name)).map(forTool);
    const required = new Set(spec.requires ?? []);
    const args = command.arguments.map((a) => forTool(required.has(a.name) ? { ...a, required: true } : a));
    return {
      spec,
      command: { ...command, arguments: args },
      options,
      inputSchema: inputSchema(args, options, spec.lists),
    };
  });
}

/** The JSON Schema of a command's arguments and options; `lists`: options that take a comma-separated list of their values. */
export function inputSchema(
  args: readonly CatalogArgument[],
  options: readonly CatalogOption[],
  lists: readonly string[] = [],
): ToolInputSchema {
  const properties: Record<string, JsonSchemaProperty> = {};
  for (const a of args)
    properties[a.name] = { type: 'string', description: a.help, ...(a.values ? { enum: a.values } : {}) };
  for (const o of options) {
    const property: JsonSchemaProperty = isLamports(o.name)
      ? { type: 'string', description: o.help, pattern: '^[0-9]+$' }
      : { type: o.type, description: o.help };
    if (o.values && lists.includes(o.name)) {
      const one = `(${o.values.join('|')})`;
      property.pattern = `^${one}(,${one})*$`;
    } else if (o.values) property.enum = o.values;
    Object.assign(property, RANGES[o.name]);
    if (o.default !== undefined) property.default = isLamports(o.name) ? String(o.default) : o.default;
    properties[o.name] = property;
  }
  const required = args.filter((a) => a.required).map((a) => a.name);
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

/**
 * The argv of a call: the command, its options as `--flag=value` (one word each, so no value can
 * become another option), then `--` and the arguments (so none can be read as an option).
 * Checks the types the schema declares; the command's own parse checks the rest, as for the CLI.
 */
export function toolArgv(tool: Tool, input: Record<string, unknown>): string[] {
  const known = new Set([...tool.command.arguments.map((a) => a.name), ...tool.options.map((o) => o.name)]);
  for (const key of Object.keys(input)) {
    if (!known.has(key)) throw new UsageError(`${tool.spec.name} takes no argument "${key}"`, 'INVALID_ARGUMENT');
  }
  const flags: string[] = [];
  for (const o of tool.options) {
    const value = input[o.name];
    if (value === undefined || value === null) continue;
    if (o.type === 'boolean') {
      if (typeof value !== 'boolean') throw new UsageError(`${o.name} must be true or false`, 'INVALID_ARGUMENT');
      // `--no-wait` is the flag of wait: false; a flag is given for true.
      const negated = o.flag.startsWith('--no-');
      if (negated ? !value : value) flags.push(o.flag);
      continue;
    }
    flags.push(`${o.flag}=${scalar(o.name, value, o.type)}`);
  }
  const positional: string[] = [];
  for (const a of tool.command.arguments) {
    const value = input[a.name];
    if (value === undefined || value === null) {
      if (a.required) throw new UsageError(`${tool.spec.name} needs "${a.name}"`, 'INVALID_ARGUMENT');
      continue;
    }
    positional.push(scalar(a.name, value, 'string'));
  }
  return [...tool.command.name.split(' '), ...flags, '--', ...positional];
}

/** A value as the command line would type it. */
function scalar(name: string, value: unknown, type: CatalogOption['type']): string {
  if (typeof value === 'string') return value;
  // A number for a string (an amount in lamports, a limit) is what an agent often sends.
  if (typeof value === 'number' && Number.isFinite(value) && (type !== 'integer' || Number.isSafeInteger(value))) {
    if (type === 'string' && !Number.isSafeInteger(value))
      throw new UsageError(
        `${name}: pass a number that is not a whole one as a string, to keep it exact`,
        'INVALID_ARGUMENT',
      );
    return String(value);
  }
  throw new UsageError(
    `${name} must be ${type === 'string' ? 'a string' : `an ${type === 'integer' ? 'integer' : 'number'}`}`,
    'INVALID_ARGUMENT',
  );
}
