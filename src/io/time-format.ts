// Times shown to people: local date-time, to the second.

/** `2026-11-21T23:25:00.000Z` → `2026-11-21 23:25:00` in the local time zone; other text unchanged. */
export function formatLocalTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** Seconds left until an ISO time, e.g. `1m 42s`, or `expired`. */
export function formatTimeLeft(iso: string, nowMs: number): string {
  const ms = new Date(iso).getTime() - nowMs;
  if (Number.isNaN(ms)) return iso;
  if (ms <= 0) return 'expired';
  const total = Math.floor(ms / 1000);
  const minutes = Math.floor(total / 60);
  return minutes > 0 ? `${minutes}m ${total % 60}s` : `${total}s`;
}
