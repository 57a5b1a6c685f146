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
import { useCreateRegionPlaylist, useFetchPlaylistTracks, useFindGeoAlternatives } from './geo-lock-api';

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

/** The geo-lock bypass: the /geo-lock page and the /visualizations tab (spec sections 2 and 3). */
export function GeoLockPanel() {
  const urlId = useId();
  const sourceId = useId();
  const targetId = useId();
  const [playlistUrl, setPlaylistUrl] = useState('');
  const [sourceRegion, setSourceRegion] = useState<SourceRegion>(SOURCE_REGIONS[0]);
  const [targetRegion, setTargetRegion] = useState<TargetRegion>(TARGET_REGIONS[0]);
  const [result, setResult] = useState<AnalysisResult | null>(null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [created, setCreated] = useState<{ url: string; name: string } | null>(null);
  const fetching = useFetchPlaylistTracks();
  const analyzing = useFindGeoAlternatives();
  const creating = useCreateRegionPlaylist();
  const phase: Phase = fetching.isPending
    ? 'fetching'
    : analyzing.isPending
      ? 'analyzing'
      : creating.isPending
        ? 'creating'
        : 'idle';

  const analysisFailed = (error: unknown) =>
    toast({
      title: 'Analysis failed',
      description: failureDescription(
        "We couldn't analyze this playlist. Please check the URL and try again.",
        error,
      ),
      variant: 'destructive',
    });

  const analyze = () => {
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
    fetching.mutate(url, {
      onError: analysisFailed,
      onSuccess: ({ playlist, tracks }) =>
        analyzing.mutate(
          { tracks, sourceRegion, targetRegion, service: playlist.service },
          {
            onError: analysisFailed,
            onSuccess: (answer) => {
              setResult({ ...answer, playlistName: playlist.name, region: targetRegion });
              setChosen(chosenByDefault(answer));
            },
          },
        ),
    });
  };

  const create = () => {
    if (!result) return;
    const applied = result.alternatives.filter((entry) => entry.alternative && chosen.has(entry.original.id));
    const recordUse = (success: boolean) => {
      for (const entry of applied) {
        track('geo_lock_bypass_used', {
          original_track: entry.original.id,
          alternative_track: entry.alternative?.id ?? '',
          success,
        });
      }
    };
    creating.mutate(
      { playlistUrl: playlistUrl.trim(), targetRegion: result.region, replacements: [...chosen] },
      {
        onSuccess: (answer) => {
          recordUse(true);
          setCreated({ url: answer.url, name: `${result.playlistName} (${result.region})` });
          toast({
            title: 'Playlist created',
            description: `${result.playlistName} (${result.region}) is in your library.`,
          });
        },
        onError: (error) => {
          recordUse(false);
          toast({
            title: 'Creation failed',
            description: failureDescription(
              "We couldn't create the optimized playlist. Please try again.",
              error,
            ),
            variant: 'destructive',
          });
        },
      },
    );
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
        <CardTitle>Geo-Lock Bypass</CardTitle>
        <CardDescription>
          Find available versions of the tracks a region blocks, and save a playlist that plays there.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <HowItWorks headingId={`${urlId}-how`} />
        {result ? (
          <AlternativesReview
            result={result}
            chosen={chosen}
            created={created}
            phase={phase}
            onToggle={toggle}
            onCreate={create}
            onReset={reset}
          />
        ) : (
          <AnalyzeForm
            ids={{ url: urlId, source: sourceId, target: targetId }}
            playlistUrl={playlistUrl}
            onPlaylistUrl={setPlaylistUrl}
            sourceRegion={sourceRegion}
            onSourceRegion={setSourceRegion}
            targetRegion={targetRegion}
            onTargetRegion={setTargetRegion}
            phase={phase}
            onAnalyze={analyze}
          />
        )}
      </CardContent>
    </Card>
  );
}

/** Steps 1-4 of the spec's "How it works". */
function HowItWorks({ headingId }: { headingId: string }) {
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId} className="mb-3 text-sm font-semibold text-slate-900">
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
  );
}

type AnalysisResult = GeoAlternativesResponse & { playlistName: string; region: string };

/** The analysis: every geo-locked track with its alternative, kept or used, and the playlist to create. */
function AlternativesReview({
  result,
  chosen,
  created,
  phase,
  onToggle,
  onCreate,
  onReset,
}: {
  result: AnalysisResult;
  chosen: Set<string>;
  created: { url: string; name: string } | null;
  phase: Phase;
  onToggle: (id: string, useAlternative: boolean) => void;
  onCreate: () => void;
  onReset: () => void;
}) {
  return (
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
              onToggle={(useAlternative) => onToggle(entry.original.id, useAlternative)}
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
        <Button onClick={onCreate} disabled={phase !== 'idle' || created !== null}>
          {phase === 'creating' ? 'Creating...' : created ? 'Playlist created' : 'Create Optimized Playlist'}
        </Button>
        <Button variant="outline" onClick={onReset} disabled={phase !== 'idle'}>
          New Analysis
        </Button>
      </div>
    </section>
  );
}

/** A region picker over a fixed list of codes. */
function RegionSelect<Code extends string>({
  id,
  label,
  codes,
  value,
  onChange,
}: {
  id: string;
  label: string;
  codes: readonly Code[];
  value: Code;
  onChange: (code: Code) => void;
}) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <select
        id={id}
        className={SELECT_CLASSES}
        value={value}
        onChange={(event) => onChange(codes.find((code) => code === event.target.value) ?? value)}
      >
        {codes.map((code) => (
          <option key={code} value={code}>
            {code}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Step 1: the playlist URL and the two regions. */
function AnalyzeForm(props: {
  ids: { url: string; source: string; target: string };
  playlistUrl: string;
  onPlaylistUrl: (url: string) => void;
  sourceRegion: SourceRegion;
  onSourceRegion: (region: SourceRegion) => void;
  targetRegion: TargetRegion;
  onTargetRegion: (region: TargetRegion) => void;
  phase: Phase;
  onAnalyze: () => void;
}) {
  const { ids, phase } = props;
  return (
    <div className="grid gap-4">
      <div className="grid gap-2">
        <Label htmlFor={ids.url}>Playlist URL</Label>
        <Input
          id={ids.url}
          value={props.playlistUrl}
          onChange={(event) => props.onPlaylistUrl(event.target.value)}
          placeholder="https://open.spotify.com/playlist/… or https://music.apple.com/…"
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <RegionSelect
          id={ids.source}
          label="Source region"
          codes={SOURCE_REGIONS}
          value={props.sourceRegion}
          onChange={props.onSourceRegion}
        />
        <RegionSelect
          id={ids.target}
          label="Target region"
          codes={TARGET_REGIONS}
          value={props.targetRegion}
          onChange={props.onTargetRegion}
        />
      </div>
      <Button size="lg" onClick={props.onAnalyze} disabled={phase !== 'idle'}>
        {phase === 'fetching'
          ? 'Fetching playlist...'
          : phase === 'analyzing'
            ? 'Analyzing...'
            : 'Analyze Playlist'}
      </Button>
    </div>
  );
}
