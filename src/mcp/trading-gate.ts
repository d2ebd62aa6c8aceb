// Whether the trade tools are offered: only when the person started the server with
// --allow-trading and the profile bounds unattended trading (maxBuyLamports and maxSlippageBps).
// Asked again before every trade, as the profile may have changed since the server started.
import type { Settings } from '../config/settings.js';

export interface TradingGate {
  allowed: boolean;
  /** Why trading is off (null when it is on). */
  reason: string | null;
  maxBuyLamports: string | null;
  maxSlippageBps: number | null;
  maxFeeLamports: string | null;
}

/** The gate for these settings and the server's flag. */
export function tradingGate(settings: Pick<Settings, 'maxBuyLamports' | 'maxSlippageBps' | 'maxFeeLamports' | 'profileName'>, allowTrading: boolean): TradingGate {
  const limits = {
    maxBuyLamports: settings.maxBuyLamports === null ? null : settings.maxBuyLamports.toString(),
    maxSlippageBps: settings.maxSlippageBps,
    maxFeeLamports: settings.maxFeeLamports === null ? null : settings.maxFeeLamports.toString(),
  };
  if (!allowTrading) {
    return { allowed: false, reason: 'the server was started without --allow-trading: buy, sell and cancel are not offered (a person restarts it with `trader mcp --allow-trading`)', ...limits };
  }
  const missing = [settings.maxBuyLamports === null && 'maxBuyLamports', settings.maxSlippageBps === null && 'maxSlippageBps'].filter(Boolean);
  if (missing.length > 0) {
    const set = missing.map((key) => `\`trader --profile ${settings.profileName} config set ${key} <value>\``).join(' and ');
    return {
      allowed: false,
      reason: `profile "${settings.profileName}" does not set ${missing.join(' and ')}, the limits that bound unattended trading: buy, sell and cancel are not offered (a person sets them with ${set}, then restarts the server)`,
      ...limits,
    };
  }
  return { allowed: true, reason: null, ...limits };
}
