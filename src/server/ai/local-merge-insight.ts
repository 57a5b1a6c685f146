import type { MergeInsightInput, MergeInsightResult } from './engine';
import { overlapPercent } from './insight-numbers';

/**
 * The local merge insight: every clause comes from the input's numbers and names. The wording varies with
 * the input (a hash picks the phrasing) but never between two calls with the same input.
 */

function hashOf(input: MergeInsightInput): number {
  let hash = 0x811c9dc5;
  for (const char of JSON.stringify(input)) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

function pick<T>(options: readonly [T, ...T[]], seed: number): T {
  return options[seed % options.length] ?? options[0];
}

/** "a", "a and b", "a, b and others" — never a count, so the text states only the input's numbers. */
function listOf(items: readonly string[], max = 3): string {
  const shown = items.slice(0, max);
  if (items.length > max) return `${shown.join(', ')} and others`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

function titleCase(text: string): string {
  return text.replace(/\b\p{L}/gu, (letter) => letter.toUpperCase());
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

function artistSentence(input: MergeInsightInput, seed: number): string {
  const { friendName, sharedArtists } = input;
  if (sharedArtists.length === 0) {
    return `You and ${friendName} have no artist in common yet, so this mix is a real exchange.`;
  }
  const artists = listOf(sharedArtists);
  return pick(
    [
      `You and ${friendName} both play ${artists}.`,
      `Common ground: ${artists} show up on both sides.`,
      `${artists} ${sharedArtists.length === 1 ? 'is' : 'are'} where your taste and ${friendName}'s meet.`,
    ],
    seed,
  );
}

function genreSentence(input: MergeInsightInput, seed: number): string {
  const { friendName, sharedGenres, yourTopGenres, friendTopGenres } = input;
  if (sharedGenres.length > 0) {
    return pick(
      [
        `You meet on ${listOf(sharedGenres)}.`,
        `The ${sharedGenres.length === 1 ? 'genre you share is' : 'genres you share are'} ${listOf(sharedGenres)}.`,
        `${titleCase(listOf(sharedGenres))} ${sharedGenres.length === 1 ? 'ties' : 'tie'} the two lists together.`,
      ],
      seed >>> 3,
    );
  }
  if (yourTopGenres.length > 0 && friendTopGenres.length > 0) {
    return `No genre is shared: your side leans ${listOf(yourTopGenres, 2)}, ${friendName}'s leans ${listOf(friendTopGenres, 2)}.`;
  }
  return '';
}

function overlapSentence(input: MergeInsightInput): string {
  const { overlapTrackCount, totalTracks } = input;
  if (totalTracks === 0) return 'The merged playlist is empty for now.';
  if (overlapTrackCount === 0) {
    return `None of the ${plural(totalTracks, 'track', 'tracks')} is on both playlists, so each song is new to one of you.`;
  }
  const percent = Math.round(overlapPercent(input));
  return `${overlapTrackCount} of the ${plural(totalTracks, 'track', 'tracks')} (${percent}%) are on both playlists.`;
}

function mixSentence(input: MergeInsightInput): string {
  const [yours, friends] = input.mixRatio;
  const lean =
    yours === friends
      ? 'an even split'
      : yours > friends
        ? 'leaning toward you'
        : `leaning toward ${input.friendName}`;
  return `The mix is ${yours}% you / ${friends}% ${input.friendName}, ${lean}.`;
}

function bridgeSentence(input: MergeInsightInput): string {
  const { bridgeTrackCount, yourTopGenres, friendTopGenres } = input;
  if (bridgeTrackCount === 0) return '';
  const mine = yourTopGenres[0];
  const theirs = friendTopGenres[0];
  const span = mine && theirs && mine !== theirs ? ` to connect ${mine} and ${theirs}` : '';
  return `${plural(bridgeTrackCount, 'bridge track was', 'bridge tracks were')} added${span}.`;
}

function playlistName(input: MergeInsightInput, seed: number): string {
  const { yourName, friendName, sharedGenres, yourTopGenres, friendTopGenres } = input;
  const pair = `${yourName} × ${friendName}`;
  const shared = sharedGenres[0];
  const mine = yourTopGenres[0];
  const theirs = friendTopGenres[0];
  let name: string;
  if (shared)
    name = `${pair}: ${titleCase(shared)} ${pick(['Common Ground', 'Crossroads', 'Meeting Point'], seed)}`;
  else if (mine && theirs && mine !== theirs) name = `${pair}: ${titleCase(mine)} Meets ${titleCase(theirs)}`;
  else name = `${pair} Mix`;
  return name.length <= 100 ? name : `${name.slice(0, 99)}…`;
}

export function localMergeInsight(input: MergeInsightInput): MergeInsightResult {
  const seed = hashOf(input);
  const summary = [
    artistSentence(input, seed),
    genreSentence(input, seed),
    overlapSentence(input),
    mixSentence(input),
    bridgeSentence(input),
  ]
    .filter((sentence) => sentence.length > 0)
    .join(' ');
  return {
    insightSummary: summary.length <= 700 ? summary : `${summary.slice(0, 699)}…`,
    playlistName: playlistName(input, seed),
  };
}
