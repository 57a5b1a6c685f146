import { buildDemoLibraries } from './demo-library';
import { appleIdFor, IsrcIssuer, spotifyIdFor } from './ids';
import { hash128, Rng } from './random';
import type { Catalog, CatalogRelease, CatalogTrack, ReleaseType, TrackVersion } from './types';
import {
  ADJECTIVES,
  ADVERBIALS,
  BAND_PREFIXES,
  CLASSICAL_COMPOSER_NAMES,
  CLASSICAL_FORMS,
  CLASSICAL_KEYS,
  CLASSICAL_MOVEMENTS,
  COMPILATION_TITLES,
  DEFAULT_COUNTRIES,
  DIACRITIC_FIRST_NAMES,
  DIACRITIC_LAST_NAMES,
  FIRST_NAMES,
  GENRE_ORIGIN,
  type Genre,
  KARAOKE_ARTISTS,
  LABEL_REGISTRANTS,
  LAST_NAMES,
  MARKETS,
  NAME_PREFIXES,
  NATIVE_WORDS,
  NOUNS,
  NUMBERS,
  OBJECTS,
  RELATED_GENRES,
  type Script,
  VENUES,
  VERBS,
} from './words';

export interface GenerateCatalogOptions {
  seed?: string | undefined;
  trackCount?: number | undefined;
}

const STOREFRONTS = MARKETS.map((market) => market.toLowerCase());
const MIN_DURATION_MS = 90_000;
const MAX_DURATION_MS = 480_000;
/** Markets where licensing gaps are common; geo-locked tracks lose one of these. */
const LOCKABLE_MARKETS = ['JP', 'RU', 'KR', 'IN', 'DE', 'TR', 'ID', 'BR'] as const;

/** Popular genres appear more often, as in real catalogs. */
const GENRE_WEIGHTS: [Genre, number][] = [
  ['pop', 6],
  ['rock', 4],
  ['hip-hop', 4],
  ['electronic', 2],
  ['indie', 2],
  ['r&b', 2],
  ['k-pop', 2],
  ['j-pop', 2],
  ['latin', 2],
  ['reggaeton', 2],
  ['country', 2],
  ['jazz', 2],
  ['c-pop', 1],
  ['classical', 1],
  ['house', 1],
  ['techno', 1],
  ['soul', 1],
  ['funk', 1],
  ['disco', 1],
  ['bossa nova', 1],
  ['folk', 1],
  ['metal', 1],
  ['punk', 1],
  ['blues', 1],
  ['reggae', 1],
  ['afrobeats', 1],
  ['ambient', 1],
  ['lo-fi', 1],
  ['soundtrack', 1],
  ['russian pop', 1],
  ['greek pop', 1],
  ['arabic pop', 1],
  ['mizrahi', 1],
];
const WEIGHTED_GENRES: Genre[] = GENRE_WEIGHTS.flatMap(([genre, weight]) => Array<Genre>(weight).fill(genre));

const SPANISH_WORDS = [
  'Corazón',
  'Canción',
  'Mañana',
  'Bailar',
  'Amor',
  'Noche',
  'Sueño',
  'Playa',
  'Fuego',
  'Mi Vida',
  'Pasión',
  'Déjà Vu',
  'Perreo',
  'Qué Pasa',
  'Ilusión',
  'Camión',
];

interface Artist {
  key: string;
  name: string;
  genres: Genre[];
  script: Script;
  country: string;
  registrant: string;
  nextYear: number;
  songs: Song[];
  albumCount: number;
}

interface Song {
  key: string;
  artist: Artist;
  title: string;
  durationMs: number;
  explicit: boolean;
  original: Recording;
}

interface Recording {
  isrc: string;
  songKey: string;
  title: string;
  artists: string[];
  featured: string[];
  durationMs: number;
  explicit: boolean;
  version: TrackVersion;
  genres: string[];
  year: number;
}

/**
 * Generates the sandbox's default catalog: invented artists with albums, singles, compilations and the many
 * versions of a song that make cross-service matching hard. Same seed, same catalog, byte for byte.
 */
export function generateCatalog({
  seed = 'crossfade',
  trackCount = 24_000,
}: GenerateCatalogOptions = {}): Catalog {
  const builder = new CatalogBuilder(seed, trackCount);
  builder.build();
  const tracks = builder.tracks;
  lockRegions(tracks, new Rng(`${seed}:regions`));
  const catalog: Catalog = {
    tracks,
    releases: builder.releases,
    demoLibraries: { spotify: [], apple: [] },
  };
  catalog.demoLibraries = buildDemoLibraries(catalog, new Rng(`${seed}:library`));
  return catalog;
}

class CatalogBuilder {
  readonly tracks: CatalogTrack[] = [];
  readonly releases = new Map<string, CatalogRelease>();
  private readonly rng: Rng;
  private readonly artists: Artist[] = [];
  private readonly artistNames = new Set<string>();
  private readonly songs: Song[] = [];
  private readonly karaokeActs: Artist[] = [];
  private readonly isrcs = new IsrcIssuer();
  private readonly spotifyIds = new Set<string>();
  private readonly appleIds = new Set<string>();
  private releaseCounter = 0;
  private compilationCounter = 0;

  constructor(
    private readonly seed: string,
    private readonly target: number,
  ) {
    this.rng = new Rng(`${seed}:catalog`);
  }

  private get full(): boolean {
    return this.tracks.length >= this.target;
  }

  build(): void {
    const artistCount = Math.max(40, Math.round(this.target / 30));
    for (let i = 0; i < artistCount; i++) this.artists.push(this.createArtist(i));
    const rng = this.rng;
    while (!this.full) {
      const roll = rng.float();
      if (roll < 0.04 && this.songs.length > 200) this.addGenreCompilation();
      else if (roll < 0.055 && this.songs.length > 200) this.addKaraokeAlbum();
      else if (roll < 0.13 && this.songs.length > 50) this.addCover();
      else this.artistStep(rng.pickSkewed(this.artists, 1.6));
    }
  }

  // --- artists and songs -------------------------------------------------------------------------------

  private createArtist(index: number): Artist {
    const rng = this.rng;
    const primary = rng.pick(WEIGHTED_GENRES);
    const genres = [primary, ...rng.sample(RELATED_GENRES[primary], rng.int(0, 2))];
    const origin = GENRE_ORIGIN[primary];
    const country = origin ? rng.pick(origin.countries) : rng.pick(DEFAULT_COUNTRIES);
    const script: Script = origin && rng.chance(origin.nativeShare) ? origin.script : 'latin';
    const earliest = ['k-pop', 'afrobeats', 'reggaeton', 'lo-fi', 'c-pop'].includes(primary) ? 1995 : 1960;
    const startYear = Math.max(earliest, 2025 - Math.floor(rng.float() ** 1.5 * 65));
    return {
      key: `a${String(index).padStart(5, '0')}`,
      name: this.uniqueArtistName(primary, script),
      genres,
      script,
      country,
      registrant: rng.pick(LABEL_REGISTRANTS),
      nextYear: startYear,
      songs: [],
      albumCount: 0,
    };
  }

  private uniqueArtistName(genre: Genre, script: Script): string {
    for (let attempt = 0; ; attempt++) {
      let name = this.artistName(genre, script);
      if (attempt > 8)
        name = `${name} ${this.rng.pick(['II', 'Trio', 'Collective', 'Project', '& Friends'])}`;
      if (!this.artistNames.has(name)) {
        this.artistNames.add(name);
        return name;
      }
    }
  }

  private artistName(genre: Genre, script: Script): string {
    const rng = this.rng;
    if (script !== 'latin') {
      const words = NATIVE_WORDS[script];
      const name = rng.sample(words.name, rng.int(1, 2)).join(words.joiner || '');
      // Many such acts carry a Latin alias in the credit itself, which name matching must see through.
      return rng.chance(0.15) ? `${name} (${rng.pick(NOUNS).toUpperCase()})` : name;
    }
    if (genre === 'classical') {
      return rng.chance(0.4)
        ? rng.pick(CLASSICAL_COMPOSER_NAMES)
        : `${rng.pick(['The', ''])} ${rng.pick(LAST_NAMES)} ${rng.pick(['Quartet', 'Ensemble', 'Chamber Orchestra', 'Trio'])}`.trim();
    }
    const diacritics = ['latin', 'reggaeton', 'bossa nova', 'folk', 'indie'].includes(genre) ? 0.45 : 0.1;
    const first = rng.chance(diacritics) ? rng.pick(DIACRITIC_FIRST_NAMES) : rng.pick(FIRST_NAMES);
    const last = rng.chance(diacritics) ? rng.pick(DIACRITIC_LAST_NAMES) : rng.pick(LAST_NAMES);
    const roll = rng.float();
    if (['hip-hop', 'reggaeton', 'afrobeats'].includes(genre) && roll < 0.4) {
      return `${rng.pick(NAME_PREFIXES)} ${rng.pick([first, rng.pick(NOUNS), rng.pick(ADJECTIVES)])}`;
    }
    if (['rock', 'indie', 'punk', 'metal', 'folk', 'country'].includes(genre) && roll < 0.55) {
      return `${rng.pick(BAND_PREFIXES)} ${rng.pick(ADJECTIVES)} ${plural(rng.pick(NOUNS))}`.trim();
    }
    if (['electronic', 'house', 'techno', 'ambient', 'lo-fi'].includes(genre) && roll < 0.5) {
      return rng.chance(0.5)
        ? `${rng.pick(NOUNS)}${rng.pick(['', ' ', ''])}${rng.pick(NOUNS).toLowerCase()}`
        : `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`;
    }
    if (roll < 0.08) return first;
    return `${first} ${last}`;
  }

  private songTitle(artist: Artist): string {
    const rng = this.rng;
    const genre = artist.genres[0];
    if (genre === 'classical') {
      return `${rng.pick(CLASSICAL_FORMS)} No. ${rng.int(1, 24)} in ${rng.pick(CLASSICAL_KEYS)}, Op. ${rng.int(2, 120)}: ${rng.pick(CLASSICAL_MOVEMENTS)}`;
    }
    if (artist.script !== 'latin' && rng.chance(0.7)) {
      const words = NATIVE_WORDS[artist.script];
      const title = rng.sample(words.title, rng.int(1, 2)).join(words.joiner);
      return rng.chance(0.1) ? `${title} (${rng.pick(NOUNS)})` : title;
    }
    if ((genre === 'latin' || genre === 'reggaeton' || genre === 'bossa nova') && rng.chance(0.6)) {
      return rng.chance(0.3)
        ? `${rng.pick(SPANISH_WORDS)} ${rng.pick(SPANISH_WORDS).toLowerCase()}`
        : rng.pick(SPANISH_WORDS);
    }
    const roll = rng.float();
    if (roll < 0.25) return `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`;
    if (roll < 0.4) return rng.pick(NOUNS);
    if (roll < 0.55)
      return `${rng.pick(VERBS)} ${rng.pick(OBJECTS)}${rng.chance(0.5) ? ` ${rng.pick(ADVERBIALS)}` : ''}`;
    if (roll < 0.63) return `${rng.pick(NOUNS)} of ${plural(rng.pick(NOUNS))}`;
    if (roll < 0.7) return `Don't ${rng.pick(VERBS)} ${rng.pick(OBJECTS)}`;
    if (roll < 0.77) return `${rng.pick(NOUNS)} in the ${rng.pick(NOUNS)}`;
    if (roll < 0.83) return `${rng.pick(NUMBERS)} ${plural(rng.pick(NOUNS))}`;
    if (roll < 0.88) return `${rng.pick(NOUNS)}'s ${rng.pick(NOUNS)}`;
    if (roll < 0.93) return `${rng.pick(ADJECTIVES)}`;
    return `${rng.pick(VERBS)} ${rng.pick(ADVERBIALS)}`;
  }

  private songDuration(genre: Genre | undefined): number {
    const rng = this.rng;
    // `normal` deviates at most 1.5 × spread, so these stay mostly inside 1:30-8:00 before clamping.
    const [mean, spread] =
      genre === 'classical' || genre === 'ambient'
        ? [330, 150]
        : genre === 'punk'
          ? [150, 40]
          : genre === 'jazz' || genre === 'electronic' || genre === 'techno'
            ? [300, 120]
            : [215, 75];
    return clampDuration(Math.round(rng.normal(mean, spread)) * 1000 + rng.int(0, 999));
  }

  private createSong(artist: Artist, year: number): Song {
    const rng = this.rng;
    const genre = artist.genres[0];
    const explicitShare =
      genre === 'hip-hop'
        ? 0.55
        : genre === 'reggaeton'
          ? 0.35
          : genre === 'punk' || genre === 'metal'
            ? 0.25
            : 0.08;
    const featured: string[] = [];
    if (genre !== 'classical' && rng.chance(0.12)) {
      const partner = this.partnerFor(artist);
      if (partner) featured.push(partner.name);
    }
    const key = `s${String(this.songs.length).padStart(6, '0')}`;
    const title = this.songTitle(artist);
    const durationMs = this.songDuration(genre);
    const explicit = rng.chance(explicitShare);
    const original: Recording = {
      isrc: this.isrcs.issue(artist.country, artist.registrant, year),
      songKey: key,
      title,
      artists: [artist.name, ...featured],
      featured,
      durationMs,
      explicit,
      version: 'original',
      genres: artist.genres,
      year,
    };
    const song: Song = { key, artist, title, durationMs, explicit, original };
    artist.songs.push(song);
    this.songs.push(song);
    return song;
  }

  private partnerFor(artist: Artist, preferGenres?: Genre[]): Artist | undefined {
    const wanted = preferGenres ?? artist.genres;
    for (let attempt = 0; attempt < 12; attempt++) {
      const candidate = this.rng.pick(this.artists);
      if (candidate !== artist && candidate.genres.some((genre) => wanted.includes(genre))) return candidate;
    }
    return undefined;
  }

  /** A new recording of an existing song: a new ISRC, a version marker and a plausible duration. */
  private version(
    song: Song,
    version: TrackVersion,
    year: number,
    options: { marker?: string; artist?: Artist } = {},
  ): Recording {
    const performer = options.artist ?? song.artist;
    const marker = options.marker;
    const title = marker
      ? marker.startsWith('(')
        ? `${song.title} ${marker}`
        : `${song.title} - ${marker}`
      : song.title;
    const keepsFeatures = version !== 'cover' && version !== 'karaoke';
    const featured = keepsFeatures ? song.original.featured : [];
    const artists = [performer.name, ...featured];
    const explicit =
      version === 'clean' || version === 'instrumental' || version === 'karaoke' ? false : song.explicit;
    return {
      isrc: this.isrcs.issue(performer.country, performer.registrant, year),
      songKey: song.key,
      title,
      artists,
      featured,
      durationMs: clampDuration(Math.round(this.versionDuration(song.durationMs, version))),
      explicit,
      version,
      genres: version === 'cover' || version === 'karaoke' ? performer.genres : song.original.genres,
      year,
    };
  }

  private versionDuration(base: number, version: TrackVersion): number {
    const rng = this.rng;
    switch (version) {
      case 'original':
        return base;
      case 'remaster':
        return base + rng.int(-1500, 1500);
      case 'mono':
        return base + rng.int(-1000, 1000);
      case 'live':
        return base * (1.02 + rng.float() * 0.15);
      case 'acoustic':
        return base * (0.88 + rng.float() * 0.18);
      case 'remix':
        return rng.int(150_000, 330_000);
      case 'instrumental':
        return base + rng.int(-2000, 2000);
      case 'a-cappella':
        return base * (0.9 + rng.float() * 0.08);
      case 'karaoke':
        return base + rng.int(-3000, 3000);
      case 'cover':
        return base * (0.85 + rng.float() * 0.35);
      case 'radio-edit':
        return base * (0.72 + rng.float() * 0.15);
      case 'extended':
        return base * (1.3 + rng.float() * 0.35);
      case 'sped-up':
        return base / 1.25;
      case 'demo':
        return base * (0.85 + rng.float() * 0.25);
      case 'clean':
        return base + rng.int(-300, 300);
    }
  }

  // --- releases ----------------------------------------------------------------------------------------

  private addRelease(spec: {
    name: string;
    type: ReleaseType;
    artists: string[];
    year: number;
    recordings: Recording[];
    bonus?: Recording[];
  }): void {
    if (this.full) return;
    const rng = this.rng;
    const key = `r${String(this.releaseCounter++).padStart(6, '0')}`;
    // Catalog gaps come mostly by release (a label not licensed to one service), a few by track.
    const releaseGap = rng.float();
    const missingOn: 'spotify' | 'apple' | null =
      releaseGap < 0.02 ? 'spotify' : releaseGap < 0.04 ? 'apple' : null;
    const discs = [spec.recordings, spec.bonus ?? []];
    let added = 0;
    discs.forEach((recordings, discIndex) => {
      recordings.forEach((recording, index) => {
        if (this.full) return;
        const trackKey = `t${String(this.tracks.length).padStart(7, '0')}`;
        const trackGap = rng.float();
        const absent = missingOn ?? (trackGap < 0.01 ? 'spotify' : trackGap < 0.02 ? 'apple' : null);
        this.tracks.push({
          key: trackKey,
          songKey: recording.songKey,
          version: recording.version,
          isrc: recording.isrc,
          title: recording.title,
          artists: recording.artists,
          featured: recording.featured,
          releaseKey: key,
          trackNumber: index + 1,
          discNumber: discIndex + 1,
          durationMs: recording.durationMs,
          explicit: recording.explicit,
          genres: recording.genres,
          spotify:
            absent === 'spotify'
              ? null
              : { id: spotifyIdFor(`${this.seed}:${trackKey}`, this.spotifyIds), markets: [...MARKETS] },
          apple:
            absent === 'apple'
              ? null
              : {
                  id: appleIdFor(`${this.seed}:${trackKey}`, this.appleIds),
                  storefronts: [...STOREFRONTS],
                },
        });
        added++;
      });
    });
    if (added === 0) return;
    this.releases.set(key, {
      key,
      name: spec.name,
      type: spec.type,
      artists: spec.artists,
      releaseDate: this.releaseDate(spec.year),
      totalTracks: added,
      upc: String(190_000_000_000 + this.releaseCounter * 7_919),
      // One album in twenty is listed on Apple under a reissue's UPC (decided by key: no draw from rng).
      ...(spec.type === 'album' && hash128(`apple-upc:${this.seed}:${key}`)[0] % 20 === 0
        ? { appleUpc: String(880_000_000_000 + this.releaseCounter * 6_113) }
        : {}),
    });
  }

  private releaseDate(year: number): string {
    const rng = this.rng;
    if (year < 1980 && rng.chance(0.15)) return String(year);
    // Nothing is released in the future: the sandbox's "now" is late 2026.
    const month = rng.int(1, year >= 2026 ? 10 : 12);
    const day = rng.int(1, 28);
    return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  }

  private artistStep(artist: Artist): void {
    const rng = this.rng;
    const year = Math.min(2026, artist.nextYear);
    artist.nextYear += rng.int(1, 3);
    if (artist.songs.length < 6 || rng.chance(0.55)) {
      this.addAlbum(artist, year);
      return;
    }
    const roll = rng.float();
    if (roll < 0.3) this.addLiveAlbum(artist, year);
    else if (roll < 0.55) this.addAcousticEp(artist, year);
    else if (roll < 0.8) this.addRemixEp(artist, year);
    else if (artist.songs.length >= 20) this.addGreatestHits(artist, year);
    else this.addAlbum(artist, year);
  }

  private albumName(artist: Artist, songs: Song[]): string {
    const rng = this.rng;
    const roll = rng.float();
    const titleTrack = rng.pick(songs);
    if (roll < 0.3) return titleTrack.title;
    if (roll < 0.38 && artist.albumCount === 0) return artist.name;
    if (roll < 0.5 && artist.script !== 'latin') {
      const words = NATIVE_WORDS[artist.script];
      return rng.sample(words.title, 2).join(words.joiner);
    }
    if (roll < 0.7) return `${rng.pick(ADJECTIVES)} ${plural(rng.pick(NOUNS))}`;
    if (roll < 0.8) return `${rng.pick(NOUNS)}`;
    if (roll < 0.88 && artist.albumCount > 0) return `${rng.pick(['II', 'III', 'Vol. 2', 'Part Two'])}`;
    return `The ${rng.pick(NOUNS)} ${rng.pick(['Sessions', 'Tapes', 'Chronicles', 'Years', 'Diaries'])}`;
  }

  private addAlbum(artist: Artist, year: number): void {
    const rng = this.rng;
    const classical = artist.genres[0] === 'classical';
    const songs = Array.from({ length: classical ? rng.int(4, 8) : rng.int(7, 13) }, () =>
      this.createSong(artist, year),
    );
    const name = this.albumName(artist, songs);
    artist.albumCount++;
    const artists = [artist.name];
    this.addRelease({ name, type: 'album', artists, year, recordings: songs.map((song) => song.original) });

    const singles = classical ? 0 : rng.int(0, 3);
    for (const song of rng.sample(songs, singles)) this.addSingle(artist, song, year);

    if (songs.some((song) => song.explicit) && rng.chance(0.45)) {
      const recordings = songs.map((song) =>
        song.explicit ? this.version(song, 'clean', year) : song.original,
      );
      this.addRelease({ name, type: 'album', artists, year, recordings });
    }
    if (rng.chance(0.12)) {
      const bonus = rng.sample(songs, rng.int(2, 4)).map((song) => {
        const kind = rng.pick(['demo', 'acoustic', 'live', 'instrumental'] as const);
        const marker = { demo: 'Demo', acoustic: 'Acoustic', live: 'Live', instrumental: 'Instrumental' }[
          kind
        ];
        return this.version(song, kind, year, { marker });
      });
      this.addRelease({
        name: `${name} (Deluxe Edition)`,
        type: 'album',
        artists,
        year: Math.min(2026, year + rng.int(0, 2)),
        recordings: songs.map((song) => song.original),
        bonus,
      });
    }
    if (year < 1970 && rng.chance(0.5)) {
      const recordings = songs.map((song) => this.version(song, 'mono', year, { marker: 'Mono' }));
      this.addRelease({ name: `${name} (Mono)`, type: 'album', artists, year, recordings });
    }
    if (year < 2008 && rng.chance(0.4)) {
      const remasterYear = rng.int(Math.max(year + 8, 1995), 2025);
      const marker = rng.chance(0.7) ? `Remastered ${remasterYear}` : `${remasterYear} Remaster`;
      const recordings = songs.map((song) => this.version(song, 'remaster', remasterYear, { marker }));
      this.addRelease({
        name: `${name} (${marker})`,
        type: 'album',
        artists,
        year: remasterYear,
        recordings,
      });
    }
  }

  /** A single shares the album recording's ISRC and often carries edits of it. */
  private addSingle(artist: Artist, song: Song, albumYear: number): void {
    const rng = this.rng;
    const year = albumYear;
    const recordings = [song.original];
    if (song.explicit && rng.chance(0.4)) recordings.push(this.version(song, 'clean', year));
    if (rng.chance(0.35)) recordings.push(this.version(song, 'radio-edit', year, { marker: 'Radio Edit' }));
    const electronic = artist.genres.some((genre) =>
      ['electronic', 'house', 'techno', 'disco'].includes(genre),
    );
    if (rng.chance(electronic ? 0.5 : 0.1))
      recordings.push(this.version(song, 'extended', year, { marker: 'Extended Mix' }));
    if (rng.chance(0.15))
      recordings.push(this.version(song, 'instrumental', year, { marker: 'Instrumental' }));
    if (rng.chance(0.06)) recordings.push(this.version(song, 'a-cappella', year, { marker: 'A Cappella' }));
    if (rng.chance(0.15)) {
      const remixer = this.partnerFor(artist, ['electronic', 'house', 'techno', 'pop']);
      if (remixer) {
        const remix = this.version(song, 'remix', year, { marker: `(${remixer.name} Remix)` });
        remix.artists = [...remix.artists, remixer.name];
        recordings.push(remix);
      }
    }
    if (year >= 2019 && rng.chance(0.3))
      recordings.push(this.version(song, 'sped-up', year, { marker: 'Sped Up' }));
    this.addRelease({ name: song.title, type: 'single', artists: [artist.name], year, recordings });
  }

  private addLiveAlbum(artist: Artist, year: number): void {
    const rng = this.rng;
    const venue = rng.pick(VENUES);
    const songs = rng.sample(artist.songs, rng.int(6, 12));
    const marker = rng.chance(0.6) ? 'Live' : `Live at ${venue}`;
    const recordings = songs.map((song) => this.version(song, 'live', year, { marker }));
    this.addRelease({ name: `Live at ${venue}`, type: 'album', artists: [artist.name], year, recordings });
  }

  private addAcousticEp(artist: Artist, year: number): void {
    const rng = this.rng;
    const songs = rng.sample(artist.songs, rng.int(3, 5));
    const recordings = songs.map((song) => this.version(song, 'acoustic', year, { marker: 'Acoustic' }));
    this.addRelease({
      name: `${rng.pick(NOUNS)} Sessions (Acoustic)`,
      type: 'single',
      artists: [artist.name],
      year,
      recordings,
    });
  }

  private addRemixEp(artist: Artist, year: number): void {
    const rng = this.rng;
    const song = rng.pick(artist.songs);
    const recordings = [song.original];
    for (let i = rng.int(2, 4); i > 0; i--) {
      const remixer = this.partnerFor(artist, ['electronic', 'house', 'techno']);
      if (!remixer) continue;
      const remix = this.version(song, 'remix', year, { marker: `(${remixer.name} Remix)` });
      remix.artists = [...remix.artists, remixer.name];
      recordings.push(remix);
    }
    this.addRelease({
      name: `${song.title} (Remixes)`,
      type: 'single',
      artists: [artist.name],
      year,
      recordings,
    });
  }

  private addGreatestHits(artist: Artist, year: number): void {
    const rng = this.rng;
    const recordings = rng.sample(artist.songs, rng.int(12, 18)).map((song) => song.original);
    const name = rng.pick(['Greatest Hits', 'The Very Best Of', `The Essential ${artist.name}`, 'Anthology']);
    this.addRelease({ name, type: 'compilation', artists: [artist.name], year, recordings });
  }

  private addGenreCompilation(): void {
    const rng = this.rng;
    const genre = rng.pick(WEIGHTED_GENRES);
    const candidates = this.songs.filter((song) => song.artist.genres.includes(genre));
    if (candidates.length < 12) return;
    const recordings = rng.sample(candidates, rng.int(12, 20)).map((song) => song.original);
    const year = Math.min(2026, latestYear(recordings) + rng.int(0, 4));
    const name = `${rng.pick(COMPILATION_TITLES)(genre)}${rng.chance(0.5) ? ` ${year}` : ` Vol. ${++this.compilationCounter}`}`;
    this.addRelease({ name, type: 'compilation', artists: ['Various Artists'], year, recordings });
  }

  private addKaraokeAlbum(): void {
    const rng = this.rng;
    const performer = this.karaokeArtist(rng.pick(KARAOKE_ARTISTS));
    const songs = rng.sample(this.songs.slice(-2000), rng.int(8, 15));
    const year = Math.min(
      2026,
      Math.max(2005, latestYear(songs.map((song) => song.original)) + rng.int(0, 3)),
    );
    const recordings = songs.map((song) =>
      this.version(song, 'karaoke', year, { marker: '(Karaoke Version)', artist: performer }),
    );
    const name = `Karaoke Hits, Vol. ${++this.compilationCounter}`;
    this.addRelease({ name, type: 'compilation', artists: [performer.name], year, recordings });
  }

  /** Karaoke acts live outside `artists` so they never release albums of their own. */
  private karaokeArtist(name: string): Artist {
    const existing = this.karaokeActs.find((artist) => artist.name === name);
    if (existing) return existing;
    const artist: Artist = {
      key: `a-karaoke-${this.artists.length}`,
      name,
      genres: ['pop'],
      script: 'latin',
      country: 'GB',
      registrant: 'KK1',
      nextYear: 2005,
      songs: [],
      albumCount: 0,
    };
    this.artistNames.add(name);
    this.karaokeActs.push(artist);
    return artist;
  }

  private addCover(): void {
    const rng = this.rng;
    const song = rng.pick(this.songs);
    const performer = this.partnerFor(song.artist) ?? rng.pick(this.artists);
    if (performer === song.artist) return;
    const year = Math.min(2026, Math.max(performer.nextYear, song.original.year + rng.int(1, 20)));
    const recording = this.version(song, 'cover', year, { artist: performer });
    this.addRelease({
      name: song.title,
      type: 'single',
      artists: [performer.name],
      year,
      recordings: [recording],
    });
  }
}

function latestYear(recordings: Recording[]): number {
  return recordings.reduce((latest, recording) => Math.max(latest, recording.year), 1960);
}

/** "Memory" → "Memories", "Kiss" → "Kisses": album names pluralize nouns. */
function plural(noun: string): string {
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  if (/(s|x|ch|sh)$/.test(noun)) return `${noun}es`;
  return `${noun}s`;
}

function clampDuration(ms: number): number {
  return Math.max(MIN_DURATION_MS, Math.min(MAX_DURATION_MS, ms));
}

/**
 * Geo-locks: some releases are missing in one market, but only where another release of the same
 * recording (same ISRC) is available there on the same service, the situation the geo-lock bypass resolves.
 */
function lockRegions(tracks: CatalogTrack[], rng: Rng): void {
  const byIsrc = new Map<string, CatalogTrack[]>();
  for (const track of tracks) {
    const group = byIsrc.get(track.isrc);
    if (group) group.push(track);
    else byIsrc.set(track.isrc, [track]);
  }
  for (const group of byIsrc.values()) {
    if (group.length < 2 || !rng.chance(0.3)) continue;
    const locked = rng.pick(group);
    const market = rng.pick(LOCKABLE_MARKETS);
    const others = group.filter((track) => track !== locked);
    const spotifyAlternative = others.some((track) => track.spotify?.markets.includes(market));
    const appleAlternative = others.some((track) => track.apple?.storefronts.includes(market.toLowerCase()));
    if (locked.spotify && spotifyAlternative) {
      locked.spotify.markets = locked.spotify.markets.filter((code) => code !== market);
    }
    if (locked.apple && appleAlternative) {
      locked.apple.storefronts = locked.apple.storefronts.filter((code) => code !== market.toLowerCase());
    }
  }
}
