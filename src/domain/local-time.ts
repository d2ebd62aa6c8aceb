// Times shown to people, in one notation everywhere: local date and time to the second, and the
// zone named (`2026-11-21 23:25:00 UTC`), so a time in a review, a summary, a table or an error
// reads the same and says which clock it is on. Machine output keeps the API's ISO times.

let zoneFormat: Intl.DateTimeFormat | undefined;

/** The local zone's short name at that time: `UTC`, `CET`/`GMT+1`, `EDT` (as the platform names it). */
export function zoneName(date: Date): string {
  zoneFormat ??= new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' });
  return zoneFormat.formatToParts(date).find((p) => p.type === 'timeZoneName')?.value ?? 'local time';
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `2026-11-21T23:25:00.000Z` → `2026-11-21 23:25:00 UTC` in the local time zone; `—` for none; other text unchanged. */
export function formatLocalTime(iso: string | number | null | undefined): string {
  if (iso === null || iso === undefined || iso === '') return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return `${localMinute(date)}:${pad(date.getSeconds())} ${zoneName(date)}`;
}

/** `2026-11-21 23:25`: a table's time, to the minute, its zone in the column's header. */
export function localMinute(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
