import { z } from 'zod';

/** The two streaming services Crossfade moves playlists between (spec section 3). */
export const serviceIdSchema = z.enum(['spotify', 'apple'], {
  error: () => 'Unknown service: use "spotify" or "apple".',
});
export type ServiceId = z.infer<typeof serviceIdSchema>;

export const SERVICE_LABELS: Record<ServiceId, string> = { spotify: 'Spotify', apple: 'Apple Music' };

export const otherService = (service: ServiceId): ServiceId => (service === 'spotify' ? 'apple' : 'spotify');

/** Region codes offered by the geo-lock bypass (spec section 3). */
export const SOURCE_REGIONS = ['US', 'GB', 'CA', 'AU', 'DE', 'FR'] as const;
export const TARGET_REGIONS = ['JP', 'KR', 'BR', 'IN', 'ZA', 'RU'] as const;
