import type { GeoLockExplanationInput, GeoLockExplanationResult, TrackSummary } from './engine';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** "Japan (JP)"; the bare code when the runtime has no name for it. */
export function regionLabel(code: string): string {
  const upper = code.trim().toUpperCase();
  try {
    const name = regionNames.of(upper);
    return name && name !== upper ? `${name} (${upper})` : upper;
  } catch {
    return upper;
  }
}

function title(track: TrackSummary): string {
  const artists = track.artists.length > 0 ? ` by ${track.artists.join(', ')}` : '';
  return `"${track.name}"${artists}`;
}

function versionNote(alternative: TrackSummary): string {
  return alternative.versionLabels.length > 0 ? ` (${alternative.versionLabels.join(', ')})` : '';
}

export function localGeoLockExplanation(input: GeoLockExplanationInput): GeoLockExplanationResult {
  const { track, alternative, kind } = input;
  const region = regionLabel(input.targetRegion);
  const missing = `${title(track)} is not available in ${region}, usually because the rights there belong to another label or release.`;
  if (!alternative || kind === 'none') {
    return {
      explanation: `${missing} No other release of it was found there, so the new playlist skips it unless you keep the original.`,
    };
  }
  switch (kind) {
    case 'same_recording':
      return {
        explanation: `${missing} The same recording is available there on "${alternative.album}", so it sounds identical.`,
      };
    case 'same_song':
      return {
        explanation: `${missing} The same song is available there as a different recording on "${alternative.album}"${versionNote(alternative)}; it may differ slightly, for example in mastering.`,
      };
    case 'other_version':
      return {
        explanation: `${missing} Only another version is available there: "${alternative.name}"${versionNote(alternative)} on "${alternative.album}". It will sound different, so check it before you use it.`,
      };
  }
}
