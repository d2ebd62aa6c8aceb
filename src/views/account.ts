// Human views of the account and its points.
import type { Account, PointsSummary } from '../api/types.js';
import { formatUsd } from '../domain/amounts.js';
import { formatLocalTime } from '../domain/local-time.js';
import { renderFields } from '../io/table.js';
import type { Theme } from '../io/theme.js';

/** `trader me`. */
export function renderAccount(account: Account, theme: Theme): string {
  return renderFields(
    [
      ['Account', account.accountId],
      ['Wallet', theme.bold(account.walletAddress)],
      ['Created', formatLocalTime(account.createdAt)],
      // A prefix that was a piece of the key arrives already shortened, ending in "…".
      ['API key', `${account.apiKey.name} (${account.apiKey.prefix.replace(/…$/, '')}…)`],
      ['Scopes', account.apiKey.scopes.join(', ') || '—'],
      ['Key created', formatLocalTime(account.apiKey.createdAt)],
    ],
    theme,
  );
}

/** `trader points`. */
export function renderPoints(points: PointsSummary, theme: Theme): string {
  const volume = Number(points.volumeUsd);
  return renderFields(
    [
      ['Points', theme.bold(points.totalPoints.toLocaleString('en-US', { maximumFractionDigits: 2 }))],
      ['Volume', Number.isFinite(volume) ? formatUsd(volume) : points.volumeUsd],
      ['Swaps', points.completedSwaps.toLocaleString('en-US')],
      [
        'Rank',
        points.rank === null
          ? `— (no points yet; ${points.participants.toLocaleString('en-US')} participants)`
          : `${points.rank.toLocaleString('en-US')} of ${points.participants.toLocaleString('en-US')}`,
      ],
      ['Earn rate', `${points.pointsPerUsd} points per USD`],
    ],
    theme,
  );
}
