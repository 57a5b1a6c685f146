import type { NormalizedTrack } from '../types';
import type { AppleSong } from './schemas';

/**
 * Apple credits several artists in one string ("A, B & C") and featured artists in the title
 * ("Song (feat. X & Y)"). Crossfade wants an artists list, so the feat. credit moves from the title to the
 * artists; the rest of the title (" - Acoustic", "[Remix]") stays for the matching engine to judge.
 */

const FEAT_CREDIT = /\s*[([]\s*(?:feat\.?|featuring|ft\.)\s+([^)\]]+)[)\]]/i;

export function splitArtistName(artistName: string): string[] {
  return artistName
    .split(/, | & /)
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

export function splitFeaturedCredit(title: string): { title: string; featured: string[] } {
  const match = FEAT_CREDIT.exec(title);
  if (!match || match[1] === undefined) return { title, featured: [] };
  const rest = `${title.slice(0, match.index)}${title.slice(match.index + match[0].length)}`;
  return { title: rest.replace(/\s{2,}/g, ' ').trim(), featured: splitArtistName(match[1]) };
}

const ALBUM_SUFFIX = / - (Single|EP)$/;

export function songToTrack(song: AppleSong): NormalizedTrack {
  const { attributes } = song;
  const { title, featured } = splitFeaturedCredit(attributes.name);
  const artists = [...splitArtistName(attributes.artistName)];
  for (const name of featured) if (!artists.includes(name)) artists.push(name);
  const single = ALBUM_SUFFIX.test(attributes.albumName);
  const genres = attributes.genreNames.filter((genre) => genre !== 'Music');
  return {
    id: song.id,
    uri: song.id,
    name: title,
    artists,
    album: attributes.albumName.replace(ALBUM_SUFFIX, ''),
    durationMs: attributes.durationInMillis,
    ...(attributes.isrc ? { isrc: attributes.isrc.toUpperCase() } : {}),
    explicit: attributes.contentRating === 'explicit',
    ...(attributes.artwork ? { imageUrl: artworkUrl(attributes.artwork.url, 600) } : {}),
    ...(attributes.releaseDate ? { releaseDate: attributes.releaseDate } : {}),
    ...(genres.length > 0 ? { genres } : {}),
    ...(single ? { albumType: 'single' as const } : {}),
    ...(attributes.trackNumber !== undefined ? { trackNumber: attributes.trackNumber } : {}),
    ...(attributes.url ? { url: attributes.url } : {}),
    // Apple sends playParams only for songs playable in the storefront the call was made for.
    availability: { playable: attributes.playParams !== undefined },
  };
}

export function artworkUrl(template: string, size: number): string {
  return template.replace('{w}', String(size)).replace('{h}', String(size));
}
