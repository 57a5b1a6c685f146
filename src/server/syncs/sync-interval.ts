import type { SyncSchedule } from '../../shared/api/syncs';

const HOUR_MS = 60 * 60_000;
const INTERVAL_MS: Record<Exclude<SyncSchedule, 'manual'>, number> = {
  hourly: HOUR_MS,
  daily: 24 * HOUR_MS,
  weekly: 7 * 24 * HOUR_MS,
};

/** When a sync on this schedule next runs after `from`; null for manual syncs. */
export function nextRunAfter(schedule: SyncSchedule, from: Date): Date | null {
  return schedule === 'manual' ? null : new Date(from.getTime() + INTERVAL_MS[schedule]);
}
