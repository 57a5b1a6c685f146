import { type PlaylistSummary, playlistTrackCountText } from '../../shared/api/playlists';

/**
 * Issue 23: playlists with the same name ("Road Trip" twice) must be told apart wherever they are picked.
 * For each playlist whose name another one in the same list shares, a short line of what differs between
 * them: owner, track count, last change and cover, each only when it differs; when nothing does, all that
 * is known plus its place among them ("2 of 2").
 */
export type TwinCandidate = Pick<
  PlaylistSummary,
  'id' | 'name' | 'trackCount' | 'trackCountUnknown' | 'ownerName' | 'isOwned' | 'updatedAt' | 'imageUrl'
>;

const sameNameKey = (name: string) => name.trim().toLocaleLowerCase();

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

function changedText(updatedAt: string | undefined): string | undefined {
  if (!updatedAt) return undefined;
  const date = new Date(updatedAt);
  return Number.isNaN(date.getTime()) ? undefined : `changed ${dateFormat.format(date)}`;
}

function ownerText(playlist: TwinCandidate): string | undefined {
  if (playlist.ownerName) return `by ${playlist.ownerName}`;
  if (playlist.isOwned === false) return 'followed, not yours';
  return undefined;
}

/** Each attribute of one playlist as shown, in a fixed order. */
function attributes(playlist: TwinCandidate): (string | undefined)[] {
  return [
    ownerText(playlist),
    playlistTrackCountText(playlist),
    changedText(playlist.updatedAt),
    playlist.imageUrl ? 'with a cover' : 'no cover',
  ];
}

/** The distinguishing line for every playlist that shares its name with another, by id. */
export function sameNameDetails(playlists: readonly TwinCandidate[]): Map<string, string> {
  const groups = new Map<string, TwinCandidate[]>();
  for (const playlist of playlists) {
    const key = sameNameKey(playlist.name);
    groups.set(key, [...(groups.get(key) ?? []), playlist]);
  }
  const details = new Map<string, string>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const shown = group.map(attributes);
    const differs = (shown[0] ?? []).map((_, index) => new Set(shown.map((row) => row[index])).size > 1);
    const anyDiffers = differs.some(Boolean);
    group.forEach((playlist, position) => {
      const row = shown[position] ?? [];
      const parts = row.filter(
        (value, index): value is string => value !== undefined && (!anyDiffers || differs[index] === true),
      );
      if (!anyDiffers) parts.push(`${position + 1} of ${group.length}`);
      details.set(playlist.id, parts.join(' · '));
    });
  }
  return details;
}

/** An option's text in a picker that cannot show a second line: the name, then what tells it apart. */
export function withTwinDetails(label: string, details: string | undefined): string {
  return details ? `${label} — ${details}` : label;
}
