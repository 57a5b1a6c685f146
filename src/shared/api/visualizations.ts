import { z } from 'zod';
import { text } from '../text';

/**
 * Taste graph and taste timeline (spec sections 2, 3 and 7), shared by the server and the web app.
 */

export const TASTE_GRAPH_TYPES = ['genres', 'artists', 'connections'] as const;
export const tasteGraphTypeSchema = z.enum(TASTE_GRAPH_TYPES, {
  error: () => 'Unknown graph type: use "genres", "artists" or "connections".',
});
export type TasteGraphType = z.infer<typeof tasteGraphTypeSchema>;

export const TIMELINE_RANGES = ['5years', 'decade', 'all'] as const;
export const timelineRangeSchema = z.enum(TIMELINE_RANGES, {
  error: () => 'Unknown time range: use "5years", "decade" or "all".',
});
export type TimelineRange = z.infer<typeof timelineRangeSchema>;

export const TIMELINE_RANGE_LABELS: Record<TimelineRange, string> = {
  '5years': 'Last 5 Years',
  decade: 'Last Decade',
  all: 'All Time',
};

/** Largest graph the page draws: more nodes than this stop being readable on an 800×400 canvas. */
export const MAX_GRAPH_NODES = 40;

export const graphNodeSchema = z.object({
  id: text(),
  label: text(),
  /** How many tracks (genres, artists) or playlists (tracks) carry it. */
  value: z.number(),
  group: z.enum(['genre', 'artist', 'track']),
});
export type GraphNode = z.infer<typeof graphNodeSchema>;

export const graphEdgeSchema = z.object({ from: text(), to: text(), value: z.number() });
export type GraphEdge = z.infer<typeof graphEdgeSchema>;

/** Where an answer came from, so the page can say it (and say when it is the sample). */
export const insightSourceSchema = z.object({
  /** True when this is the built-in sample library (signed out, or no service connected). */
  sample: z.boolean(),
  services: z.array(z.enum(['spotify', 'apple'])),
  playlistCount: z.number().int().nonnegative(),
  trackCount: z.number().int().nonnegative(),
  /** Tracks with no genre in the service's or the Apple catalog's data; they are left out of genre views. */
  tracksWithoutGenres: z.number().int().nonnegative(),
});
export type InsightSource = z.infer<typeof insightSourceSchema>;

export const tasteGraphSchema = z.object({
  nodes: z.array(graphNodeSchema),
  edges: z.array(graphEdgeSchema),
  sample: z.boolean(),
  source: insightSourceSchema,
});
export type TasteGraph = z.infer<typeof tasteGraphSchema>;

export const tasteTimelineSchema = z.object({
  years: z.array(text()),
  /** Series name → percentage per year (same order as `years`); each year sums to exactly 100. */
  genres: z.record(text(), z.array(z.number())),
  moods: z.record(text(), z.array(z.number())),
  sample: z.boolean(),
  /** What places a track in a year: its release year (services do not give us when it was added). */
  basis: z.literal('release-year'),
  source: insightSourceSchema,
});
export type TasteTimeline = z.infer<typeof tasteTimelineSchema>;

// ── The sample library ──────────────────────────────────────────────────────────────────────────

/** Ids of sample playlists start with this, so an export request can tell them from real ones. */
export const SAMPLE_PLAYLIST_PREFIX = 'sample-';

export interface SampleTrack {
  id: string;
  name: string;
  artists: string[];
  album: string;
  durationMs: number;
  releaseYear: number;
  genres: string[];
}

export interface SamplePlaylist {
  id: string;
  name: string;
  description: string;
  tracks: SampleTrack[];
}

type Row = [name: string, artist: string, album: string, genres: string, year: number, seconds: number];

const sample = (id: string, name: string, description: string, rows: Row[]): SamplePlaylist => ({
  id: `${SAMPLE_PLAYLIST_PREFIX}${id}`,
  name,
  description,
  tracks: rows.map(([track, artist, album, genres, year, seconds], index) => ({
    id: `${SAMPLE_PLAYLIST_PREFIX}${id}-${index + 1}`,
    name: track,
    artists: artist.split(' & '),
    album,
    durationMs: seconds * 1000,
    releaseYear: year,
    genres: genres.split(','),
  })),
});

/**
 * The spec's sample (3 playlists, 45 tracks), shown to people who are signed out or have no service
 * connected. Invented names: it must look like a library without copying a real catalog.
 */
export const SAMPLE_PLAYLISTS: SamplePlaylist[] = [
  sample('morning-drive', 'Morning Drive', 'Bright songs for the commute', [
    ['Open Road Sunrise', 'The Paper Kites Club', 'Highway Lines', 'rock,indie', 2017, 214],
    ['Golden Hour Radio', 'Mira Vale', 'Static Hearts', 'pop', 2019, 198],
    ['Coastline', 'Harbor & Pine', 'Salt Air', 'indie,folk', 2016, 241],
    ['Neon Overpass', 'Mira Vale', 'Static Hearts', 'pop,electronic', 2019, 187],
    ['First Gear', 'Loud Lanterns', 'Ignition', 'rock', 2015, 203],
    ['Summer Lemonade', 'Juniper Bay', 'Porch Lights', 'pop,country', 2021, 176],
    ['Windows Down', 'The Paper Kites Club', 'Highway Lines', 'rock', 2017, 229],
    ['Carousel', 'Odette Nines', 'Spin Cycle', 'pop', 2022, 192],
    ['Fast Lane Lullaby', 'Loud Lanterns', 'Ignition', 'rock,punk', 2015, 167],
    ['Paper Planes Again', 'Juniper Bay', 'Porch Lights', 'country,folk', 2021, 222],
    ['Skyline Confetti', 'Odette Nines', 'Spin Cycle', 'pop,electronic', 2023, 181],
    ['Mile Marker', 'Harbor & Pine', 'Salt Air', 'folk', 2016, 256],
    ['Bicycle Bells', 'Pip & The Ferns', 'Green Streets', 'indie,pop', 2020, 171],
    ['Tollbooth Serenade', 'Loud Lanterns', 'Ignition', 'rock', 2015, 238],
    ['Morning Person', 'Mira Vale', 'Daybreak', 'pop', 2024, 189],
  ]),
  sample('late-night', 'Late Night Focus', 'Low lights, headphones on', [
    ['Midnight Spreadsheet', 'Quiet Circuit', 'Desk Lamp', 'lo-fi,electronic', 2020, 154],
    ['Rain on Glass', 'Amber Static', 'Window Seat', 'ambient', 2018, 302],
    ['Blue Note Taxi', 'Theo Marsh Trio', 'After Hours', 'jazz', 2012, 347],
    ['Slow Orbit', 'Quiet Circuit', 'Desk Lamp', 'electronic,ambient', 2020, 276],
    ['Velvet Hallway', 'Nadia Rose', 'Soft Focus', 'r&b,soul', 2019, 233],
    ['Tape Hiss Dreams', 'Amber Static', 'Window Seat', 'lo-fi', 2018, 141],
    ['Cobblestone Waltz', 'Theo Marsh Trio', 'After Hours', 'jazz', 2012, 289],
    ['Streetlight Hum', 'Nadia Rose', 'Soft Focus', 'r&b', 2019, 211],
    ['Deep Field', 'Orbital Moss', 'Long Exposure', 'ambient,classical', 2014, 418],
    ['Kettle Steam', 'Quiet Circuit', 'Warm Mugs', 'lo-fi', 2022, 133],
    ['Night Bus Home', 'Harbor Lights Quartet', 'Last Stop', 'jazz,soul', 2010, 305],
    ['Satin Static', 'Nadia Rose', 'Late Bloom', 'r&b,soul', 2023, 224],
    ['Pixel Snow', 'Orbital Moss', 'Long Exposure', 'electronic', 2014, 259],
    ['Paper Moon Drift', 'Amber Static', 'Moonlit', 'ambient', 2024, 281],
    ['Last Train Lounge', 'Theo Marsh Trio', 'Encore', 'jazz', 2021, 316],
  ]),
  sample('workout', 'Workout Mix', 'High tempo for the gym', [
    ['Heavy Lift', 'Kilo Kings', 'Iron Days', 'hip-hop', 2018, 196],
    ['Sprint Interval', 'Volt Avenue', 'Overdrive', 'electronic,house', 2020, 224],
    ['Burn Notice', 'Ravenhall', 'Ash & Ember', 'metal,rock', 2013, 251],
    ['Rep It Out', 'Kilo Kings', 'Iron Days', 'hip-hop', 2018, 183],
    ['Bassline Cardio', 'Volt Avenue', 'Overdrive', 'house', 2020, 242],
    ['Uphill Anthem', 'Ravenhall', 'Ash & Ember', 'metal', 2013, 268],
    ['Pulse Check', 'DJ Lumen', 'Strobe', 'electronic', 2022, 201],
    ['No Days Off', 'Kilo Kings', 'Gold Chains', 'hip-hop', 2021, 174],
    ['Reggaeton Run', 'La Brisa', 'Calor', 'reggaeton,latin', 2019, 188],
    ['Final Set', 'Ravenhall', 'Cinders', 'metal,punk', 2016, 205],
    ['Drop Zone', 'DJ Lumen', 'Strobe', 'electronic,house', 2022, 236],
    ['Street Cipher', 'Kilo Kings', 'Gold Chains', 'hip-hop', 2021, 192],
    ['Fuego Lento', 'La Brisa', 'Calor', 'latin', 2019, 207],
    ['Cooldown Stretch', 'Orbital Moss', 'Breathe', 'ambient', 2023, 244],
    ['Victory Lap', 'Volt Avenue', 'Encore Circuit', 'electronic', 2024, 219],
  ]),
];
