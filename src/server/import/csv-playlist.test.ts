import { describe, expect, it } from 'vitest';
import { IMPORT_MESSAGES as M, parsePlaylistCsv, playlistNameFromFileName } from './csv-playlist';

const EXPORTIFY_HEADER =
  '"Track URI","Track Name","Artist URI(s)","Artist Name(s)","Album URI","Album Name","Album Artist URI(s)","Album Artist Name(s)","Album Release Date","Album Image URL","Disc Number","Track Number","Track Duration (ms)","Track Preview URL","Explicit","Popularity","ISRC","Added By","Added At"';

// Invented rows in Exportify's layout: every field quoted, CRLF line ends, a BOM in front.
const exportifyFile = `\ufeff${[
  EXPORTIFY_HEADER,
  '"spotify:track:0aBcDeFgHiJkLmNoPqRsTu","Harbour Lights","spotify:artist:1x","The Low Tides","spotify:album:2y","Salt & Static","spotify:artist:1x","The Low Tides","2019-04-12","https://i.example/a.jpg","1","3","241533","","false","41","GBAYE1901234","spotify:user:me","2023-06-01T18:22:10Z"',
  '"spotify:track:1BcDeFgHiJkLmNoPqRsTuV","Paper Crowns (feat. Mira Vale)","spotify:artist:3z,spotify:artist:4w","Junebug;Mira Vale","spotify:album:5v","Paper Crowns","spotify:artist:3z","Various Artists","2021","","1","1","198000","","true","57","usqx92104321","spotify:user:me","2023-06-02T09:00:00Z"',
  '"spotify:local:Home+Tapes:Demos:Kitchen+Song:187","Kitchen Song","","Home Tapes","","Demos","","","","","0","0","187000","","false","0","","spotify:user:me","2023-06-03T10:00:00Z"',
].join('\r\n')}\r\n`;

describe('parsePlaylistCsv: Exportify files', () => {
  it('reads every track with its metadata, named after the file', () => {
    const result = parsePlaylistCsv(exportifyFile, { fileName: 'Summer_Drive_2023.csv' });
    expect(result).toEqual({
      ok: true,
      playlistName: 'Summer Drive 2023',
      warnings: [],
      entries: [
        {
          row: 2,
          id: '0aBcDeFgHiJkLmNoPqRsTu',
          uri: 'spotify:track:0aBcDeFgHiJkLmNoPqRsTu',
          sourceService: 'spotify',
          name: 'Harbour Lights',
          artists: ['The Low Tides'],
          album: 'Salt & Static',
          durationMs: 241533,
          isrc: 'GBAYE1901234',
          explicit: false,
          releaseDate: '2019-04-12',
          addedAt: '2023-06-01T18:22:10Z',
        },
        {
          row: 3,
          id: '1BcDeFgHiJkLmNoPqRsTuV',
          uri: 'spotify:track:1BcDeFgHiJkLmNoPqRsTuV',
          sourceService: 'spotify',
          name: 'Paper Crowns (feat. Mira Vale)',
          artists: ['Junebug', 'Mira Vale'],
          album: 'Paper Crowns',
          durationMs: 198000,
          isrc: 'USQX92104321',
          explicit: true,
          releaseDate: '2021',
          addedAt: '2023-06-02T09:00:00Z',
        },
        {
          row: 4,
          id: 'csv-4',
          uri: 'csv-4',
          name: 'Kitchen Song',
          artists: ['Home Tapes'],
          album: 'Demos',
          durationMs: 187000,
          explicit: false,
          addedAt: '2023-06-03T10:00:00Z',
        },
      ],
    });
  });

  it('reads the older Exportify layout in another column order, ignoring extra columns', () => {
    const csv = [
      'Added At,Duration (ms),Spotify ID,Album Name,Track Name,Popularity,Artist Name(s),Track URI,Release Date,Energy',
      '2020-01-01T00:00:00Z,200500,x,Night Drive,Neon Rain,12,"Vela, Kite",spotify:track:2CdEfGhIjKlMnOpQrStUvW,2018-11,0.7',
    ].join('\n');
    const result = parsePlaylistCsv(csv);
    expect(result.ok && result.entries).toEqual([
      expect.objectContaining({
        id: '2CdEfGhIjKlMnOpQrStUvW',
        name: 'Neon Rain',
        artists: ['Vela', 'Kite'],
        album: 'Night Drive',
        durationMs: 200500,
        releaseDate: '2018-11',
      }),
    ]);
    expect(result.ok && result.playlistName).toBe('Imported playlist');
  });

  it('matches headers regardless of case and spacing', () => {
    const csv = '  track NAME ,ARTIST NAME(S),album_name,DURATION(MS)\nGlass Hour,Ora,Prism,123000\n';
    expect(parsePlaylistCsv(csv)).toMatchObject({
      ok: true,
      entries: [{ name: 'Glass Hour', artists: ['Ora'], album: 'Prism', durationMs: 123000 }],
    });
  });

  it('keeps commas, quotes and line breaks inside quoted fields', () => {
    const csv =
      'Track Name,Artist Name(s),Album Name\r\n"Hello, Goodbye, Hello","The ""Quoted"" Band","Two\r\nLines"\r\nNext,Someone,Else\r\n';
    const result = parsePlaylistCsv(csv);
    expect(result.ok && result.entries.map((e) => [e.row, e.name, e.artists, e.album])).toEqual([
      [2, 'Hello, Goodbye, Hello', ['The "Quoted" Band'], 'Two Lines'],
      [3, 'Next', ['Someone'], 'Else'],
    ]);
  });

  it('splits artists on ";" when present, otherwise on unescaped commas', () => {
    const csv = [
      'Track Name,Artist Name(s)',
      'A,"Tyler, The Creator;Kali Uchis"',
      'B,"Tyler\\, The Creator,Frank Ocean"',
      'C,"Daft Punk, Pharrell Williams, Daft Punk"',
    ].join('\n');
    const result = parsePlaylistCsv(csv);
    expect(result.ok && result.entries.map((e) => e.artists)).toEqual([
      ['Tyler, The Creator', 'Kali Uchis'],
      ['Tyler, The Creator', 'Frank Ocean'],
      ['Daft Punk', 'Pharrell Williams'],
    ]);
  });
});

describe("parsePlaylistCsv: Crossfade's own export", () => {
  it('reads Track Name, Artist, Album, Duration with m:ss, ms or an empty duration', () => {
    const csv = [
      'Track Name,Artist,Album,Duration',
      'Slow Orbit,Cass Moreno,Satellites,3:45',
      'Long Form,Drone Unit,Hours,1:02:03',
      'Quick One,Pip,Shorts,95000',
      'Unknown Length,Nobody,Nowhere,',
    ].join('\n');
    const result = parsePlaylistCsv(csv, { fileName: 'playlist_transfer.csv' });
    expect(result.ok && result.playlistName).toBe('playlist transfer');
    expect(result.ok && result.entries.map((e) => [e.name, e.durationMs, e.id])).toEqual([
      ['Slow Orbit', 225000, 'csv-2'],
      ['Long Form', 3723000, 'csv-3'],
      ['Quick One', 95000, 'csv-4'],
      ['Unknown Length', 0, 'csv-5'],
    ]);
    expect(result.ok && result.warnings).toEqual([]);
  });
});

describe('parsePlaylistCsv: localized headers', () => {
  it.each([
    [
      'German, semicolon-separated as German Excel saves',
      'Track-URI;Titel;Künstler;Albumname;Dauer (ms);ISRC',
    ],
    ['French', "URI du titre,Nom du titre,Nom(s) de l'artiste,Nom de l'album,Durée (ms),Code ISRC"],
    [
      'Spanish',
      'URI de la canción,Nombre de la canción,Nombre(s) del artista,Nombre del álbum,Duración (ms),ISRC',
    ],
    ['Portuguese', 'URI da faixa,Nome da faixa,Nome(s) do artista,Nome do álbum,Duração (ms),ISRC'],
    ['Italian', "URI del brano,Titolo,Artista/i,Nome dell'album,Durata (ms),Codice ISRC"],
    ['Japanese (full-width brackets)', 'トラックURI,曲名,アーティスト名,アルバム名,再生時間（ms）,ISRC'],
    ['accents left out', 'URI de la cancion,Nombre de la cancion,Artistas,Album,Duracion (ms),ISRC'],
  ])('reads %s', (_label, header) => {
    const delimiter = header.includes(';') ? ';' : ',';
    const row = ['spotify:track:3DeFgHiJkLmNoPqRsTuVwX', 'Lumière', 'Anaïs', 'Été', '210000', 'FRZ031900001'];
    const result = parsePlaylistCsv(`${header}\n${row.join(delimiter)}\n`);
    expect(result).toMatchObject({
      ok: true,
      entries: [
        {
          id: '3DeFgHiJkLmNoPqRsTuVwX',
          name: 'Lumière',
          artists: ['Anaïs'],
          album: 'Été',
          durationMs: 210000,
          isrc: 'FRZ031900001',
        },
      ],
    });
  });

  it('reads tab-separated text copied out of a spreadsheet', () => {
    const result = parsePlaylistCsv('Title\tArtist\tAlbum\nDust\tMoth, Flame\tWings\n');
    expect(result).toMatchObject({ ok: true, entries: [{ name: 'Dust', artists: ['Moth', 'Flame'] }] });
  });
});

describe('parsePlaylistCsv: row problems', () => {
  it('reports bad rows with spreadsheet row numbers and keeps the good ones', () => {
    const csv = [
      'Track Name,Artist Name(s),Duration (ms),ISRC',
      'Fine,A,1000,us-rc1-76-07839',
      ',B,2000,',
      'Bad Duration,C,about four minutes,',
      'Bad ISRC,D,3000,NOT-AN-ISRC',
      'Too,Many,Fields,Here,Extra',
      '"Two',
      'line title",E,4000,',
      'Too few',
      '',
      'Last,F,5000,',
    ].join('\r\n');
    const result = parsePlaylistCsv(csv);
    expect(result.ok && result.entries.map((e) => [e.row, e.name, e.durationMs, e.isrc])).toEqual([
      [2, 'Fine', 1000, 'USRC17607839'],
      [4, 'Bad Duration', 0, undefined],
      [5, 'Bad ISRC', 3000, undefined],
      [7, 'Two line title', 4000, undefined],
      [10, 'Last', 5000, undefined],
    ]);
    expect(result.ok && result.warnings).toEqual([
      { row: 3, message: 'Row 3 has no track name, so it was skipped.' },
      {
        row: 4,
        message:
          'Row 4: the duration "about four minutes" is neither milliseconds nor m:ss, so it was left out.',
      },
      { row: 5, message: 'Row 5: "NOT-AN-ISRC" is not a valid ISRC, so it was left out.' },
      { row: 6, message: 'Row 6 has 5 fields but the header has 4, so it was skipped.' },
      { row: 8, message: 'Row 8 has 1 fields but the header has 4, so it was skipped.' },
    ]);
  });
});

const bytes = (...values: number[]) => new Uint8Array(values);
const utf8 = (text: string) => new TextEncoder().encode(text);

describe('parsePlaylistCsv: files it refuses', () => {
  it.each<[string, string | Uint8Array, string]>([
    ['an empty file', '', M.empty],
    ['whitespace only', ' \r\n\r\n  ', M.empty],
    ['a BOM only', '\ufeff', M.empty],
    ['an empty byte upload', new Uint8Array(0), M.empty],
    ['a header without rows', 'Track Name,Artist\r\n', M.headerOnly],
    ['a header without a track-name column', 'Artist,Album\nA,B\n', M.noNameColumn],
    ['data without a header', 'Slow Orbit,Cass Moreno,Satellites,3:45\n', M.noNameColumn],
    ['text with NUL bytes', 'Track Name\u0000\u0000\u0000\nA\n', M.notText],
    ['one NUL in a cell', 'Track Name,Artist\nSlow\u0000 Orbit,Cass Moreno\n', M.notText],
    ['a lone surrogate in decoded text', 'Track Name,Artist\nSlow \ud800Orbit,Cass Moreno\n', M.notUtf8],
    [
      'UTF-16 bytes with a lone surrogate',
      bytes(
        0xff,
        0xfe,
        ...[...'Track Name\nA'].flatMap((ch) => [ch.charCodeAt(0), 0]),
        0x00,
        0xd8,
        0x0a,
        0x00,
      ),
      M.notText,
    ],
    [
      'an Excel workbook',
      bytes(0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00, 0x00, 0x00, 0x21, 0x00),
      M.spreadsheet,
    ],
    [
      'Latin-1 bytes',
      new Uint8Array([...utf8('Track Name,Artist\nBeyonc'), 0xe9, ...utf8(',X\n')]),
      M.notUtf8,
    ],
    ['text a browser decoded from non-UTF-8', 'Track Name,Artist\nBeyonc\ufffd,X\n', M.notUtf8],
    ['rows without any track name', 'Track Name,Artist\n,A\n,B\n', M.noUsableRows],
  ])('refuses %s', (_label, input, message) => {
    const result = parsePlaylistCsv(input);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toBe(message);
  });

  it('lists the row problems when no row is usable', () => {
    expect(parsePlaylistCsv('Track Name,Artist\n,A\n,B\n')).toEqual({
      ok: false,
      message: M.noUsableRows,
      problems: [
        { row: 2, message: 'Row 2 has no track name, so it was skipped.' },
        { row: 3, message: 'Row 3 has no track name, so it was skipped.' },
      ],
    });
  });

  it('refuses a file whose quoted field never closes, naming the row', () => {
    expect(parsePlaylistCsv('Track Name,Artist\nOne,A\n"Two,B\nThree,C\n')).toEqual({
      ok: false,
      message: 'The file is cut off or damaged: a quoted field that starts on row 3 is never closed.',
      problems: [],
    });
  });

  it('refuses files over 5 MB, as text or bytes', () => {
    const big = `Track Name\n${'x'.repeat(5 * 1024 * 1024)}\n`;
    expect(parsePlaylistCsv(big)).toMatchObject({ ok: false, message: M.tooLarge });
    expect(parsePlaylistCsv(utf8(big))).toMatchObject({ ok: false, message: M.tooLarge });
  });

  it('refuses a near-5 MB file of broken one-character rows as too many rows', () => {
    const junk = `Track Name,Artist\n${'x\n'.repeat(2_000_000)}`;
    expect(parsePlaylistCsv(junk)).toMatchObject({ ok: false, message: M.tooManyRows });
  });

  it('refuses more than 20,000 rows but takes exactly 20,000', () => {
    const rows = (count: number) =>
      `Track Name\n${Array.from({ length: count }, (_, i) => `Song ${i}`).join('\n')}\n`;
    expect(parsePlaylistCsv(rows(20_001))).toMatchObject({ ok: false, message: M.tooManyRows });
    const full = parsePlaylistCsv(rows(20_000));
    expect(full.ok && full.entries.length).toBe(20_000);
  });
});

describe('parsePlaylistCsv: uploads as bytes', () => {
  it('reads UTF-8 with a BOM and UTF-16 with a BOM', () => {
    const text = 'Track Name,Artist Name(s)\nÅngström,Björk\n';
    const utf16 = new Uint8Array(2 + text.length * 2);
    utf16.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i += 1)
      utf16.set([text.charCodeAt(i) & 0xff, text.charCodeAt(i) >> 8], 2 + i * 2);
    for (const upload of [new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(text)]), utf16]) {
      expect(parsePlaylistCsv(upload)).toMatchObject({
        ok: true,
        entries: [{ name: 'Ångström', artists: ['Björk'] }],
      });
    }
  });
});

describe('playlistNameFromFileName', () => {
  it.each([
    ['my_road_trip.csv', 'my road trip'],
    ['C:\\Users\\me\\Downloads\\Late Night Jazz.CSV', 'Late Night Jazz'],
    ['/tmp/x/__weird___name__.csv', 'weird name'],
    ['.csv', 'Imported playlist'],
    [undefined, 'Imported playlist'],
    [`${'a'.repeat(300)}.csv`, 'a'.repeat(100)],
  ])('%s → %s', (fileName, name) => {
    expect(playlistNameFromFileName(fileName)).toBe(name);
  });
});
