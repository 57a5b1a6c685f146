import { useId, useState } from 'react';
import type { GeoAlternativesResponse, SourceRegion, TargetRegion } from '../../../shared/api/geo-lock';
import { SOURCE_REGIONS, TARGET_REGIONS } from '../../../shared/services';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { toast } from '../../hooks/use-toast';
import { failureDescription } from '../../lib/failure-description';
import { track } from '../../lib/track';
import { AlternativeRow } from './alternative-row';
import { createRegionPlaylist, fetchPlaylistTracks, findGeoAlternatives } from './geo-lock-api';

type Phase = 'idle' | 'fetching' | 'analyzing' | 'creating';

const STEPS = [
  ['Select regions', 'Choose where the playlist comes from and where you want to play it.'],
  ['Analyze playlist', 'We check every track against the target region.'],
  ['Review alternatives', 'Keep the original or use an available version, track by track.'],
  ['Create optimized playlist', 'We save a copy with your choices in your library.'],
] as const;

const SELECT_CLASSES =
  'h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-violet-600';

/** Defaults: take what is clearly the same music; other versions are the person's call. */
const chosenByDefault = (result: GeoAlternativesResponse) =>
  new Set(
    result.alternatives
      .filter((entry) => entry.alternative && (entry.kind === 'same_recording' || entry.kind === 'same_song'))
      .map((entry) => entry.original.id),
  );

/** The region-lock finder: the /geo-lock page and the /visualizations tab (spec section 2). */
export function GeoLockPanel() {
  const urlId = useId();
  const sourceId = useId();
  const targetId = useId();
  const [playlistUrl, setPlaylistUrl] = useState('');
  const [sourceRegion, setSourceRegion] = useState<SourceRegion>(SOURCE_REGIONS[0]);
  const [targetRegion, setTargetRegion] = useState<TargetRegion>(TARGET_REGIONS[0]);
  const [phase, setPhase] = useState<Phase>('idle');
  const [result, setResult] = useState<
    (GeoAlternativesResponse & { playlistName: string; region: string }) | null
  >(null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [created, setCreated] = useState<{ url: string; name: string } | null>(null);

  const analyze = async () => {
    const url = playlistUrl.trim();
    if (url === '') {
      toast({
        title: 'Missing information',
        description: 'Please enter a playlist URL to analyze',
        variant: 'destructive',
      });
      return;
    }
    setCreated(null);
    setPhase('fetching');
    try {
      const { playlist, tracks } = await fetchPlaylistTracks(url);
      setPhase('analyzing');
      const answer = await findGeoAlternatives({
        tracks,
        sourceRegion,
        targetRegion,
        service: playlist.service,
      });
      setResult({ ...answer, playlistName: playlist.name, region: targetRegion });
      setChosen(chosenByDefault(answer));
    } catch (error) {
      toast({
        title: 'Analysis failed',
        description: failureDescription(
          "We couldn't analyze this playlist. Please check the URL and try again.",
          error,
        ),
        variant: 'destructive',
      });
    } finally {
      setPhase('idle');
    }
  };

  const create = async () => {
    if (!result) return;
    const replacements = [...chosen];
    const applied = result.alternatives.filter((entry) => entry.alternative && chosen.has(entry.original.id));
    setPhase('creating');
    try {
      const answer = await createRegionPlaylist({
        playlistUrl: playlistUrl.trim(),
        targetRegion: result.region,
        replacements,
      });
      for (const entry of applied) {
        track('geo_lock_bypass_used', {
          original_track: entry.original.id,
          alternative_track: entry.alternative?.id ?? '',
          success: true,
        });
      }
      setCreated({ url: answer.url, name: `${result.playlistName} (${result.region})` });
      toast({
        title: 'Playlist created',
        description: `${result.playlistName} (${result.region}) is in your library.`,
      });
    } catch (error) {
      for (const entry of applied) {
        track('geo_lock_bypass_used', {
          original_track: entry.original.id,
          alternative_track: entry.alternative?.id ?? '',
          success: false,
        });
      }
      toast({
        title: 'Creation failed',
        description: failureDescription(
          "We couldn't create the optimized playlist. Please try again.",
          error,
        ),
        variant: 'destructive',
      });
    } finally {
      setPhase('idle');
    }
  };

  const reset = () => {
    setResult(null);
    setChosen(new Set());
    setCreated(null);
  };

  const toggle = (id: string, useAlternative: boolean) => {
    // Other choices make another playlist: the create button comes back.
    setCreated(null);
    setChosen((previous) => {
      const next = new Set(previous);
      if (useAlternative) next.add(id);
      else next.delete(id);
      return next;
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Region-Lock Finder</CardTitle>
        <CardDescription>
          Find available versions of the tracks a region blocks, and save a playlist that plays there.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <section aria-labelledby={`${urlId}-how`}>
          <h3 id={`${urlId}-how`} className="mb-3 text-sm font-semibold text-slate-900">
            How it works
          </h3>
          <ol className="grid gap-3 sm:grid-cols-4">
            {STEPS.map(([title, text], index) => (
              <li key={title} className="rounded-lg border border-slate-200 p-3">
                <p className="text-xs font-semibold text-violet-700">Step {index + 1}</p>
                <p className="text-sm font-medium text-slate-900">{title}</p>
                <p className="mt-1 text-xs text-slate-600">{text}</p>
              </li>
            ))}
          </ol>
        </section>

        {result ? (
          <section aria-label="Alternatives" className="grid gap-3">
            <p className="text-sm text-slate-700" data-testid="geo-summary">
              {result.unavailable === 0
                ? `All ${result.checked} tracks of ${result.playlistName} are available in ${result.region}.`
                : `${result.unavailable} of ${result.checked} tracks of ${result.playlistName} are unavailable in ${result.region}.`}
            </p>
            {result.alternatives.length > 0 ? (
              <ul className="h-80 overflow-y-auto rounded-lg border border-slate-200">
                {result.alternatives.map((entry) => (
                  <AlternativeRow
                    key={entry.original.id}
                    entry={entry}
                    useAlternative={chosen.has(entry.original.id)}
                    onToggle={(useAlternative) => toggle(entry.original.id, useAlternative)}
                  />
                ))}
              </ul>
            ) : null}
            {created ? (
              <p className="text-sm text-emerald-800" role="status">
                Created{' '}
                <a href={created.url} target="_blank" rel="noreferrer" className="font-medium underline">
                  {created.name}
                </a>
                .
              </p>
            ) : null}
            <div className="flex flex-wrap gap-2">
              {/* Once made, these choices are in the library: another click would make a second copy. */}
              <Button onClick={create} disabled={phase !== 'idle' || created !== null}>
                {phase === 'creating'
                  ? 'Creating...'
                  : created
                    ? 'Playlist created'
                    : 'Create Optimized Playlist'}
              </Button>
              <Button variant="outline" onClick={reset} disabled={phase !== 'idle'}>
                New Analysis
              </Button>
            </div>
          </section>
        ) : (
          <div className="grid gap-4">
            <div className="grid gap-2">
              <Label htmlFor={urlId}>Playlist URL</Label>
              <Input
                id={urlId}
                value={playlistUrl}
                onChange={(event) => setPlaylistUrl(event.target.value)}
                placeholder="https://open.spotify.com/playlist/… or https://music.apple.com/…"
              />
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="grid gap-2">
                <Label htmlFor={sourceId}>Source region</Label>
                <select
                  id={sourceId}
                  className={SELECT_CLASSES}
                  value={sourceRegion}
                  onChange={(event) =>
                    setSourceRegion(
                      SOURCE_REGIONS.find((code) => code === event.target.value) ?? sourceRegion,
                    )
                  }
                >
                  {SOURCE_REGIONS.map((code) => (
                    <option key={code} value={code}>
                      {code}
                    </option>
                  ))}
                </select>
              </div>
              <div className="grid gap-2">
                <Label htmlFor={targetId}>Target region</Label>
                <select
                  id={targetId}
                  className={SELECT_CLASSES}
                  value={targetRegion}
                  onChange={(event) =>
                    setTargetRegion(
                      TARGET_REGIONS.find((code) => code === event.target.value) ?? targetRegion,
                    )
                  }
                >
                  {TARGET_REGIONS.map((code) => (
                    <option key={code} value={code}>
                      {code}
                    </option>
                  ))}
                </select>
              </div>
            </div>
            <Button size="lg" onClick={analyze} disabled={phase !== 'idle'}>
              {phase === 'fetching'
                ? 'Fetching playlist...'
                : phase === 'analyzing'
                  ? 'Analyzing...'
                  : 'Analyze Playlist'}
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
