/** One track of the archive, as the bench reads it (the source side of a row before any mess). */
export interface SourceRow {
  id: string;
  title: string;
  artists: string[];
  album: string;
  durationMs: number;
}

/**
 * The real-world differences between two services' copies of one recording, applied to one side of a
 * benchmark row, often several at once: featured artists moved between title and artists (or dropped),
 * a remixer moved to the artists or dropped, remaster and edit notes reworded, added or dropped, remaster
 * years that differ, another album, punctuation. Each applied difference is recorded in `kinds`.
 */
export type RowKind = 'script' | 'credits' | 'remixer' | 'remaster' | 'edit' | 'album' | 'punctuation';

const CREDIT_RE = /\s*[([](?:feat\.?|ft\.?|with)\s([^)\]]*)[)\]]/i;
const REMIX_RE = /\s*(?:\s-\s+|[([])\s*([^()[\]]+?)\s+(Remix|Edit|Rework)\s*[)\]]?$/i;
const REMASTER_RE =
  /\s*(?:-\s*|[([])\s*((?:\d{4}\s+)?Remaster(?:ed)?(?:\s+\d{4})?(?:\s+Version)?)\s*(?:[)\]]|$)/i;
const EDIT_RE = /\s*(?:-\s*|[([])\s*(Radio Edit|Edit|Radio Version|Single Edit)\s*[)\]]?$/i;
const REMASTER_FORMS = [
  (year: string) => `Remastered ${year}`,
  (year: string) => `${year} Remaster`,
  (year: string) => `${year} Remastered Version`,
  () => 'Remastered',
  () => 'Remaster',
];
const EDIT_FORMS = ['Radio Edit', 'Edit', 'Radio Version', 'Single Edit'];

function joinNames(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} & ${names.at(-1)}`;
}

function moveCredits(row: SourceRow, random: () => number, kinds: RowKind[]): SourceRow {
  const credit = CREDIT_RE.exec(row.title);
  if (credit?.[1]) {
    const title = row.title.replace(CREDIT_RE, '');
    kinds.push('credits');
    if (random() < 0.3) return { ...row, title };
    const named = credit[1].split(/,\s*|\s+&\s+/).filter((name) => name.trim() !== '');
    const artists = [...row.artists];
    for (const name of named)
      if (!artists.some((a) => a.toLowerCase() === name.toLowerCase())) artists.push(name);
    return { ...row, title, artists };
  }
  if (row.artists.length >= 2 && random() < 0.6) {
    const form = ['feat.', 'ft.', 'with', 'Feat.'][Math.floor(random() * 4)];
    const [open, close] = random() < 0.8 ? ['(', ')'] : ['[', ']'];
    const title = `${row.title} ${open}${form} ${joinNames(row.artists.slice(1))}${close}`;
    kinds.push('credits');
    return { ...row, title, artists: random() < 0.6 ? row.artists.slice(0, 1) : row.artists };
  }
  return row;
}

function moveRemixer(row: SourceRow, random: () => number, kinds: RowKind[]): SourceRow {
  const remix = REMIX_RE.exec(row.title);
  const remixer = remix?.[1]?.trim();
  if (!remix || !remixer || /radio|single|original|extended|club/i.test(remixer) || random() < 0.4)
    return row;
  const label = remix[2] === 'Rework' ? 'Remix' : (remix[2] ?? 'Remix');
  kinds.push('remixer');
  const title = row.title.replace(
    remix[0],
    remix[0].trimStart().startsWith('-') ? ` - ${label}` : ` (${label})`,
  );
  const credited = row.artists.some((artist) => artist.toLowerCase() === remixer.toLowerCase());
  return { ...row, title, artists: credited || random() < 0.5 ? row.artists : [...row.artists, remixer] };
}

function rewordRemaster(row: SourceRow, random: () => number, kinds: RowKind[]): SourceRow {
  const remaster = REMASTER_RE.exec(row.title);
  if (!remaster?.[1]) {
    if (random() >= 0.06) return row;
    kinds.push('remaster');
    const form = REMASTER_FORMS[Math.floor(random() * REMASTER_FORMS.length)] ?? REMASTER_FORMS[0];
    return { ...row, title: `${row.title} - ${form?.(String(2000 + Math.floor(random() * 24)))}` };
  }
  kinds.push('remaster');
  const year = /\d{4}/.exec(remaster[1])?.[0] ?? String(1995 + Math.floor(random() * 25));
  const roll = random();
  if (roll < 0.3) {
    const title = row.title.replace(remaster[0], '');
    return { ...row, title, album: random() < 0.5 ? `${row.album} (Remastered)` : row.album };
  }
  const newYear = roll < 0.5 ? String(Number(year) + ([-5, 3, 10][Math.floor(random() * 3)] ?? 3)) : year;
  const form = REMASTER_FORMS[Math.floor(random() * REMASTER_FORMS.length)] ?? REMASTER_FORMS[0];
  const note = form?.(newYear) ?? 'Remastered';
  return { ...row, title: row.title.replace(remaster[0], random() < 0.5 ? ` - ${note}` : ` (${note})`) };
}

function rewordEdit(row: SourceRow, random: () => number, kinds: RowKind[]): SourceRow {
  const edit = EDIT_RE.exec(row.title);
  if (!edit || random() < 0.3) return row;
  kinds.push('edit');
  const form = EDIT_FORMS[Math.floor(random() * EDIT_FORMS.length)] ?? 'Radio Edit';
  return { ...row, title: row.title.replace(edit[0], random() < 0.5 ? ` - ${form}` : ` (${form})`) };
}

function renameAlbum(row: SourceRow, random: () => number, kinds: RowKind[]): SourceRow {
  if (random() >= 0.15) return row;
  kinds.push('album');
  const forms = [
    `${row.album} (Deluxe Edition)`,
    `${row.album} (Expanded)`,
    'Greatest Hits',
    `${row.album} - EP`,
  ];
  return { ...row, album: forms[Math.floor(random() * forms.length)] ?? row.album };
}

function punctuate(row: SourceRow, random: () => number, kinds: RowKind[]): SourceRow {
  if (random() >= 0.15) return row;
  kinds.push('punctuation');
  return { ...row, title: row.title.replace(/ and /g, ' & ').replace(/'/g, '\u2019') };
}

export function messUp(row: SourceRow, random: () => number, kinds: RowKind[]): SourceRow {
  let messy = row;
  for (const step of [moveCredits, moveRemixer, rewordRemaster, rewordEdit, renameAlbum, punctuate]) {
    messy = step(messy, random, kinds);
  }
  return messy;
}
