// Whether the trade tools are offered: only when the person started the server with
// --allow-trading and the profile bounds unattended trading, per trade (maxBuyLamports and
// maxSlippageBps) and per day (maxDailyBuyLamports and maxDailySellLamports, counted by the
// journal across every process).
// Asked again before every trade, as the profile may have changed since the server started.
import type { Settings } from '../config/settings.js';

export interface TradingGate {
  allowed: boolean;
  /** Why trading is off (null when it is on). */
  reason: string | null;
  maxBuyLamports: string | null;
  maxSlippageBps: number | null;
  maxFeeLamports: string | null;
  maxDailyBuyLamports: string | null;
  maxDailySellLamports: string | null;
  /** The brake's limits (domain/brake-rules.ts): signatures per rolling hour, the loss stop, the mint lists. */
  maxTradesPerHour: number | null;
  maxDailyLossLamports: string | null;
  allowedMints: string[] | null;
  deniedMints: string[] | null;
}

/** The gate for these settings and the server's flag. */
export function tradingGate(
  settings: Pick<
    Settings,
    | 'maxBuyLamports'
    | 'maxSlippageBps'
    | 'maxFeeLamports'
    | 'maxDailyBuyLamports'
    | 'maxDailySellLamports'
    | 'maxTradesPerHour'
    | 'maxDailyLossLamports'
    | 'allowedMints'
    | 'deniedMints'
    | 'profileName'
  >,
  allowTrading: boolean,
): TradingGate {
  const text = (v: bigint | null) => (v === null ? null : v.toString());
  const limits = {
    maxBuyLamports: text(settings.maxBuyLamports),
    maxSlippageBps: settings.maxSlippageBps,
    maxFeeLamports: text(settings.maxFeeLamports),
    maxDailyBuyLamports: text(settings.maxDailyBuyLamports),
    maxDailySellLamports: text(settings.maxDailySellLamports),
    maxTradesPerHour: settings.maxTradesPerHour,
    maxDailyLossLamports: text(settings.maxDailyLossLamports),
    allowedMints: settings.allowedMints,
    deniedMints: settings.deniedMints,
  };
  if (!allowTrading) {
    return {
      allowed: false,
      reason:
        'the server was started without --allow-trading: buy, sell and cancel are not offered (a person restarts it with `trader mcp --allow-trading`)',
      ...limits,
    };
  }
  const missing = (['maxBuyLamports', 'maxSlippageBps', 'maxDailyBuyLamports', 'maxDailySellLamports'] as const).filter(
    (key) => settings[key] === null,
  );
  if (missing.length > 0) {
    const and = (items: string[]) =>
      items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
    const set = and(missing.map((key) => `\`trader --profile ${settings.profileName} config set ${key} <value>\``));
    return {
      allowed: false,
      reason: `profile "${settings.profileName}" does not set ${and([...missing])}, the limits that bound unattended trading: buy, sell and cancel are not offered (a person sets them with ${set}, then restarts the server)`,
      ...limits,
    };
  }
  return { allowed: true, reason: null, ...limits };
}
