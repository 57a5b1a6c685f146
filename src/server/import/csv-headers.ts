export type ColumnKey =
  | 'uri'
  | 'name'
  | 'artists'
  | 'album'
  | 'duration'
  | 'isrc'
  | 'explicit'
  | 'releaseDate'
  | 'addedAt';

/**
 * Header names per column: Exportify's English headers and their older variants, Crossfade's own export
 * ("Track Name, Artist, Album, Duration"), common spreadsheet names, and our own translations into German,
 * French, Spanish, Portuguese, Italian and Japanese. Matching ignores case, spaces, punctuation
 * and accents (see `normalizeHeader`), so each name is listed once in its natural spelling.
 */
const HEADER_NAMES: Record<ColumnKey, readonly string[]> = {
  uri: [
    'Track URI',
    'Spotify URI',
    'URI',
    'Spotify Track URI',
    // de / fr / es / pt / it / ja
    'Titel-URI',
    'Song-URI',
    'URI du titre',
    'URI de la piste',
    'URI de la canción',
    'URI de la pista',
    'URI da faixa',
    'URI da música',
    'URI del brano',
    'URI della traccia',
    'トラックURI',
    '曲のURI',
  ],
  name: [
    'Track Name',
    'Track',
    'Track Title',
    'Title',
    'Song',
    'Song Name',
    'Song Title',
    'Name',
    'Titel',
    'Titelname',
    'Songtitel',
    'Songname',
    'Name des Titels',
    'Titre',
    'Nom du titre',
    'Nom de la piste',
    'Morceau',
    'Chanson',
    'Canción',
    'Nombre de la canción',
    'Nombre de la pista',
    'Título',
    'Tema',
    'Nome da faixa',
    'Faixa',
    'Música',
    'Nome da música',
    'Titolo',
    'Nome del brano',
    'Brano',
    'Canzone',
    'トラック名',
    '曲名',
    '楽曲名',
    'タイトル',
  ],
  artists: [
    'Artist Name(s)',
    'Artist Names',
    'Artist Name',
    'Artist',
    'Artists',
    'Artist(s)',
    'Künstler',
    'Künstlername',
    'Künstlername(n)',
    'Interpret',
    'Interpret(en)',
    'Artiste',
    'Artistes',
    'Artiste(s)',
    "Nom de l'artiste",
    "Nom(s) de l'artiste",
    'Artista',
    'Artistas',
    'Artista(s)',
    'Nombre del artista',
    'Nombre(s) del artista',
    'Nome do artista',
    'Nome(s) do artista',
    'Artisti',
    'Artista/i',
    'Nome artista',
    "Nome dell'artista",
    'アーティスト名',
    'アーティスト',
  ],
  album: [
    'Album Name',
    'Album',
    'Albumname',
    "Nom de l'album",
    'Álbum',
    'Nombre del álbum',
    'Nome do álbum',
    "Nome dell'album",
    'Nome album',
    'アルバム名',
    'アルバム',
  ],
  duration: [
    'Duration (ms)',
    'Track Duration (ms)',
    'duration_ms',
    'Duration',
    'Length',
    'Time',
    'Dauer (ms)',
    'Dauer',
    'Länge',
    'Spieldauer',
    'Durée (ms)',
    'Durée',
    'Duración (ms)',
    'Duración',
    'Duração (ms)',
    'Duração',
    'Durata (ms)',
    'Durata',
    '再生時間 (ms)',
    '再生時間',
    '長さ',
  ],
  isrc: ['ISRC', 'ISRC Code', 'ISRC-Code', 'Code ISRC', 'Código ISRC', 'Codice ISRC', 'ISRCコード'],
  explicit: ['Explicit', 'Explizit', 'Explicite', 'Explícito', 'Esplicito', '露骨な表現'],
  releaseDate: [
    'Release Date',
    'Album Release Date',
    'Erscheinungsdatum',
    'Veröffentlichungsdatum',
    'Date de sortie',
    'Fecha de lanzamiento',
    'Data de lançamento',
    'Data di uscita',
    'リリース日',
  ],
  addedAt: [
    'Added At',
    'Date Added',
    'Hinzugefügt am',
    'Ajouté le',
    'Añadido el',
    'Agregado el',
    'Adicionado em',
    'Aggiunto il',
    '追加日',
  ],
};

/**
 * Case-, width-, accent-, space- and punctuation-insensitive form of a header ("Artist Name(s)" →
 * "artistnames"). Applied to both the table and the file, so Japanese marks lost by accent removal are
 * lost on both sides alike.
 */
export const normalizeHeader = (header: string): string =>
  header
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]/gu, '');

const LOOKUP: ReadonlyMap<string, ColumnKey> = new Map(
  (Object.entries(HEADER_NAMES) as Array<[ColumnKey, readonly string[]]>).flatMap(([key, names]) =>
    names.map((name) => [normalizeHeader(name), key] as const),
  ),
);

/** Field index of each recognised column (the first one when a file repeats a header). */
export type ColumnMap = Partial<Record<ColumnKey, number>>;

export const mapColumns = (header: readonly string[]): ColumnMap => {
  const columns: ColumnMap = {};
  header.forEach((raw, position) => {
    const key = LOOKUP.get(normalizeHeader(raw));
    if (key !== undefined && columns[key] === undefined) columns[key] = position;
  });
  return columns;
};

/** For tests: every header name in the table, with the column it stands for. */
export const KNOWN_HEADERS: ReadonlyArray<readonly [string, ColumnKey]> = (
  Object.entries(HEADER_NAMES) as Array<[ColumnKey, readonly string[]]>
).flatMap(([key, names]) => names.map((name) => [name, key] as const));
