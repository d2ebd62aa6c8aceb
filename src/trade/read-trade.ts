// Reads the full trade for a summary; a failure to read it does not hide the buy's or sell's
// own final state, so service errors give null (an interrupt still propagates). An answer about
// another trade is no failure to read: the service contradicting itself stops the run (exit 3).
import type { ServiceClient } from '../api/client.js';
import type { Trade } from '../api/types.js';
import { ApiError, SERVICE_CONTRADICTION } from '../domain/errors.js';

/** The full trade, or null when the service could not give it. */
export async function readTradeOrNull(api: ServiceClient, id: string): Promise<Trade | null> {
  try {
    return await api.getTrade(id);
  } catch (err) {
    if (err instanceof ApiError && err.code !== SERVICE_CONTRADICTION) return null;
    throw err;
  }
}
