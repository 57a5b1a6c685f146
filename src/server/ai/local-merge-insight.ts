import type { MergeInsightInput, MergeInsightResult } from './engine';
import { overlapPercent } from './insight-numbers';

/**
 * The local merge insight: every clause comes from the input's numbers and names. The wording varies with
 * the input (a hash picks the phrasing) but never between two calls with the same input.
 */

function hashOf(input: MergeInsightInput): number {
  let hash = 0x811c9dc5;
  // The same phrasing for every audience of one merge (JSON leaves the undefined field out).
  for (const char of JSON.stringify({ ...input, audience: undefined })) {
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

/** How the two people are named: to the reader ("you" and the friend), or to anyone (both by name). */
interface Voice {
  /** Both people at the start of a sentence: "You and Sam" / "Ana and Sam". */
  both: string;
  /** The reader's side as a subject or object: "you" / "Ana". */
  me: string;
  /** The reader's side as a possessive: "your" / "Ana's". */
  mine: string;
  /** Both people as an object: "you" / "them". */
  them: string;
}

function voiceOf(input: MergeInsightInput): Voice {
  if (input.audience === 'public') {
    const both = `${input.yourName} and ${input.friendName}`;
    return { both, me: input.yourName, mine: `${input.yourName}'s`, them: 'them' };
  }
  return { both: `You and ${input.friendName}`, me: 'you', mine: 'your', them: 'you' };
}

/** The verb for a list of names: one name takes the singular ("Priya Fischer shows up"), several the plural. */
function agree(names: readonly string[], one: string, several: string): string {
  return names.length === 1 ? one : several;
}

function artistSentence(input: MergeInsightInput, voice: Voice, seed: number): string {
  const { friendName, sharedArtists } = input;
  if (sharedArtists.length === 0) {
    return `${voice.both} have no artist in common yet, so this mix is a real exchange.`;
  }
  const artists = listOf(sharedArtists);
  return pick(
    [
      `${voice.both} both play ${artists}.`,
      `Common ground: ${artists} ${agree(sharedArtists, 'shows', 'show')} up on both sides.`,
      `${artists} ${agree(sharedArtists, 'is', 'are')} where ${voice.mine} taste and ${friendName}'s meet.`,
    ],
    seed,
  );
}

function genreSentence(input: MergeInsightInput, voice: Voice, seed: number): string {
  const { friendName, sharedGenres, yourTopGenres, friendTopGenres } = input;
  const pair = voice.me === 'you' ? 'you' : voice.both;
  if (sharedGenres.length > 0) {
    return pick(
      [
        `${voice.me === 'you' ? 'You' : voice.both} meet on ${listOf(sharedGenres)}.`,
        `The ${agree(sharedGenres, 'genre', 'genres')} ${pair} share ${agree(sharedGenres, 'is', 'are')} ${listOf(sharedGenres)}.`,
        `${titleCase(listOf(sharedGenres))} ${agree(sharedGenres, 'ties', 'tie')} the two lists together.`,
      ],
      seed >>> 3,
    );
  }
  if (yourTopGenres.length > 0 && friendTopGenres.length > 0) {
    return `No genre is shared: ${voice.mine} side leans ${listOf(yourTopGenres, 2)}, ${friendName}'s leans ${listOf(friendTopGenres, 2)}.`;
  }
  return '';
}

function overlapSentence(input: MergeInsightInput, voice: Voice): string {
  const { overlapTrackCount, totalTracks } = input;
  if (totalTracks === 0) return 'The merged playlist is empty for now.';
  if (overlapTrackCount === 0) {
    return `None of the ${plural(totalTracks, 'track', 'tracks')} is on both playlists, so each song is new to one of ${voice.them}.`;
  }
  const percent = Math.round(overlapPercent(input));
  return `${overlapTrackCount} of the ${plural(totalTracks, 'track', 'tracks')} (${percent}%) ${overlapTrackCount === 1 ? 'is' : 'are'} on both playlists.`;
}

function mixSentence(input: MergeInsightInput, voice: Voice): string {
  const [yours, friends] = input.mixRatio;
  const lean =
    yours === friends
      ? 'an even split'
      : yours > friends
        ? `leaning toward ${voice.me}`
        : `leaning toward ${input.friendName}`;
  return `The mix is ${yours}% ${voice.me} / ${friends}% ${input.friendName}, ${lean}.`;
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
  const voice = voiceOf(input);
  const summary = [
    artistSentence(input, voice, seed),
    genreSentence(input, voice, seed),
    overlapSentence(input, voice),
    mixSentence(input, voice),
    bridgeSentence(input),
  ]
    .filter((sentence) => sentence.length > 0)
    .join(' ');
  return {
    insightSummary: summary.length <= 700 ? summary : `${summary.slice(0, 699)}…`,
    playlistName: playlistName(input, seed),
    writtenBy: 'local',
  };
}
