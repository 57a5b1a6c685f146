import type { MergeInsightInput } from './engine';

/**
 * The merge insight may only state numbers the input holds (counts, the mix, the overlap share) or numbers
 * inside the names it quotes ("blink-182", "80s"). A model answer with any other number is rejected, because
 * a made-up "87% match" is worse than the plain local text.
 */

function numbersIn(text: string): number[] {
  const withoutThousands = text.replace(/(\d),(?=\d{3}\b)/g, '$1');
  return (withoutThousands.match(/\d+(?:\.\d+)?/g) ?? []).map(Number);
}

export function overlapPercent(input: Pick<MergeInsightInput, 'overlapTrackCount' | 'totalTracks'>): number {
  return input.totalTracks > 0 ? (input.overlapTrackCount / input.totalTracks) * 100 : 0;
}

export function allowedInsightNumbers(input: MergeInsightInput): Set<number> {
  const percent = overlapPercent(input);
  const allowed = new Set<number>([
    input.overlapTrackCount,
    input.totalTracks,
    input.totalTracks - input.overlapTrackCount,
    input.bridgeTrackCount,
    input.mixRatio[0],
    input.mixRatio[1],
    input.sharedArtists.length,
    input.sharedGenres.length,
    Math.round(percent),
    Math.floor(percent),
    Math.ceil(percent),
    Math.round(percent * 10) / 10,
  ]);
  const names = [
    input.yourName,
    input.friendName,
    ...input.sharedArtists,
    ...input.sharedGenres,
    ...input.yourTopGenres,
    ...input.friendTopGenres,
  ];
  for (const name of names) for (const n of numbersIn(name)) allowed.add(n);
  return allowed;
}

/** Numbers in `text` that the input does not account for. */
export function inventedNumbers(text: string, input: MergeInsightInput): number[] {
  const allowed = allowedInsightNumbers(input);
  return numbersIn(text).filter((n) => !allowed.has(n));
}
