import { describe, expect, it } from 'vitest';
import { parseAlbum, parseTitle, type VersionTag } from './versions';

const tag = (kind: VersionTag['kind'], detail = ''): VersionTag => ({ kind, detail });

describe('parseTitle', () => {
  it.each<[string, string, string[], VersionTag[]]>([
    ['Eight Days A Week - Remastered 2009', 'Eight Days A Week', [], [tag('remaster', '2009')]],
    ['Hey Jude - 2015 Remaster', 'Hey Jude', [], [tag('remaster', '2015')]],
    ['ROCKSTAR (feat. Roddy Ricch)', 'ROCKSTAR', ['Roddy Ricch'], []],
    ['Heaven - Acoustic', 'Heaven', [], [tag('acoustic')]],
    ['Firework (Melad Remix)', 'Firework', [], [tag('remix', 'melad')]],
    ['Despacito - Remix', 'Despacito', [], [tag('remix')]],
    ['Despacito (Remix) [feat. Justin Bieber]', 'Despacito', ['Justin Bieber'], [tag('remix')]],
    ['Bohemian Rhapsody - Live Aid', 'Bohemian Rhapsody', [], [tag('live', 'aid')]],
    ['Yellow (Live at Glastonbury 2016)', 'Yellow', [], [tag('live', 'glastonbury 2016')]],
    ['Creep [Live]', 'Creep', [], [tag('live')]],
    ['Love Story (Taylor’s Version)', 'Love Story', [], [tag('alternate', 'taylors')]],
    ['Bailando - Spanish Version', 'Bailando', [], [tag('language', 'spanish')]],
    ['Despacito (English Version)', 'Despacito', [], [tag('language', 'english')]],
    ['Blinding Lights (Sped Up)', 'Blinding Lights', [], [tag('sped_up')]],
    ['Heather (Slowed + Reverb)', 'Heather', [], [tag('slowed')]],
    ['Hallelujah (Instrumental)', 'Hallelujah', [], [tag('instrumental')]],
    ['Royals (A Cappella)', 'Royals', [], [tag('acapella')]],
    ['Shallow (Karaoke Version) [Originally Performed by Lady Gaga]', 'Shallow', [], [tag('karaoke')]],
    ['Titanium - Radio Edit', 'Titanium', [], [tag('radio_edit')]],
    ['Strobe - Extended Mix', 'Strobe', [], [tag('extended')]],
    ['Not Going - Wh0 Club Mix (Edit)', 'Not Going', [], [tag('radio_edit'), tag('remix', 'wh0 club')]],
    ['Not Going (Wh0 Club Mix (Edit))', 'Not Going', [], [tag('radio_edit'), tag('remix', 'wh0 club')]],
    ['Glaskupad (Axel E Remix (Radio Edit))', 'Glaskupad', [], [tag('radio_edit'), tag('remix', 'axel e')]],
    [
      'Finally Ready - Dimitri From Paris TSOP - The Sound Of Paris - Remix',
      'Finally Ready',
      [],
      [tag('remix', 'dimitri from paris tsop sound of paris')],
    ],
  ])('%j', (raw, title, featured, tags) => {
    const parsed = parseTitle(raw);
    expect(parsed.title).toBe(title);
    expect(parsed.featured).toEqual(featured);
    expect([...parsed.tags].sort((a, b) => a.kind.localeCompare(b.kind))).toEqual(
      [...tags].sort((a, b) => a.kind.localeCompare(b.kind)),
    );
  });

  it.each([
    ['Hello - Single Version', 'Hello'],
    ['Let It Go - From "Frozen"/Soundtrack Version', 'Let It Go'],
    ['Levels - Original Mix', 'Levels'],
    ['山山 (Original Version) ft. Tipsy', '山山'],
    ['Stay - Album Version (Edited)', 'Stay'],
  ])('drops the neutral note of %j without a version', (raw, title) => {
    const parsed = parseTitle(raw);
    expect(parsed.title).toBe(title);
    expect(parsed.tags).toEqual([]);
  });

  it.each([
    ["(Don't Fear) The Reaper"],
    ['Live Forever'],
    ['Remix'],
    ['Early Renaissance, Pt. I'],
    ['Instrumental Life'],
  ])('keeps %j whole: version words outside a segment are part of the name', (raw) => {
    const parsed = parseTitle(raw);
    expect(parsed.title).toBe(raw);
    expect(parsed.tags).toEqual([]);
  });

  it('moves every kind of credit into the artists', () => {
    expect(parseTitle("My Dad's Fault (with Aaron May & jetsonmade)").featured).toEqual([
      'Aaron May',
      'jetsonmade',
    ]);
    expect(parseTitle('Get On (feat. LEON (Italy))')).toMatchObject({
      title: 'Get On',
      featured: ['LEON (Italy)'],
    });
    expect(parseTitle('Sweet Dreams ft. Bea Miller').featured).toEqual(['Bea Miller']);
    expect(parseTitle('Hurt Somebody [With Julia Michaels]').featured).toEqual(['Julia Michaels']);
  });
});

describe('parseAlbum', () => {
  it('drops " - Single", " - EP" and edition notes', () => {
    expect(parseAlbum('Lemonade - Single').album).toBe('Lemonade');
    expect(parseAlbum('Sunflower - EP').album).toBe('Sunflower');
    expect(parseAlbum('Miss Anthropocene (Deluxe Edition)').album).toBe('Miss Anthropocene');
  });

  it('sees live albums by their name', () => {
    expect(parseAlbum('Live at Wembley Stadium').tags).toEqual([tag('live')]);
    expect(parseAlbum('MTV Unplugged in New York').tags).toEqual([tag('live')]);
    expect(parseAlbum('Alive 2007').tags).toEqual([]);
    expect(parseAlbum('Live Through This').tags).toEqual([]);
  });
});

describe('segments nobody recognised', () => {
  it.each<[string, string, string[]]>([
    ['Someone You Loved (Kitchen Session)', 'Someone You Loved', ['Kitchen Session']],
    ['This Life - Recorded at Electric Lady - 2010 Remaster', 'This Life', ['Recorded at Electric Lady']],
    ['Open Spaces (Alpha Sinus 117Hz - 124Hz)', 'Open Spaces', ['Alpha Sinus 117Hz - 124Hz']],
    ['New Reality feat. Hayley Topping - Garden Session', 'New Reality', ['Garden Session']],
    ['Heaven - Acoustic', 'Heaven', []],
    ["(Don't Fear) The Reaper", "(Don't Fear) The Reaper", []],
  ])('%j: core %j, extras %j', (raw, core, extras) => {
    const parsed = parseTitle(raw);
    expect(parsed.core).toBe(core);
    expect(parsed.extras).toEqual(extras);
  });

  it('keeps the credit of "Song feat. X - Note" out of the note', () => {
    expect(parseTitle('New Reality feat. Hayley Topping - Garden Session').featured).toEqual([
      'Hayley Topping',
    ]);
  });
});

describe('several notes after dashes', () => {
  it('keeps each: another recording and a remaster note', () => {
    const parsed = parseTitle('Deck the Halls - Piano Version - Remastered 2017');
    expect(parsed.title).toBe('Deck the Halls');
    expect(parsed.tags.map((t) => t.kind).sort()).toEqual(['alternate', 'remaster']);
    expect(parsed.query).toBe('Deck the Halls - Piano Version');
  });
});
