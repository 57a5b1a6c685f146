import { lazy, Suspense, useId, useState } from 'react';
import {
  type TasteTimeline,
  TIMELINE_RANGE_LABELS,
  TIMELINE_RANGES,
  type TimelineRange,
} from '../../../shared/api/visualizations';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Label } from '../../components/ui/label';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { timelineSummary } from './timeline-summary';
import { useErrorToast } from './use-error-toast';
import { useTasteTimeline } from './visualizations-api';

// Recharts is a large library: it loads when a timeline is drawn, not with the page.
const TimelineAreaChart = lazy(() => import('./timeline-area-chart'));

export function TasteTimelineCard() {
  const [range, setRange] = useState<TimelineRange>('5years');
  const query = useTasteTimeline(range);
  const selectId = useId();
  useErrorToast(query.error, 'Failed to load taste timeline data');

  return (
    <Card>
      <CardHeader className="sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1.5">
          <CardTitle>Taste Timeline</CardTitle>
          <CardDescription>
            How your genres and moods shift across the years your music came out.
          </CardDescription>
        </div>
        <div className="flex items-center gap-2">
          <Label htmlFor={selectId}>Time range</Label>
          <select
            id={selectId}
            value={range}
            onChange={(event) => setRange(event.target.value as TimelineRange)}
            className="h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-violet-600"
          >
            {TIMELINE_RANGES.map((value) => (
              <option key={value} value={value}>
                {TIMELINE_RANGE_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
      </CardHeader>
      <CardContent>
        <Tabs defaultValue="genres">
          <TabsList aria-label="Timeline view" className="w-full sm:w-auto">
            <TabsTrigger value="genres">Genres</TabsTrigger>
            <TabsTrigger value="moods">Moods</TabsTrigger>
          </TabsList>
          {(['genres', 'moods'] as const).map((view) => (
            <TabsContent key={view} value={view}>
              {query.isPending ? (
                <TimelineSkeleton />
              ) : query.isError ? (
                <div
                  role="alert"
                  className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900"
                >
                  Failed to load timeline data.{' '}
                  <Button
                    variant="link"
                    size="sm"
                    className="h-auto p-0"
                    onClick={() => void query.refetch()}
                  >
                    Try again
                  </Button>
                </div>
              ) : (
                <TimelineChart timeline={query.data} view={view} />
              )}
            </TabsContent>
          ))}
        </Tabs>
      </CardContent>
    </Card>
  );
}

function TimelineSkeleton() {
  return (
    <div className="space-y-3" aria-busy="true">
      <span className="sr-only" role="status">
        Loading your taste timeline
      </span>
      <div aria-hidden="true" className="h-72 w-full animate-pulse rounded-lg bg-slate-200" />
      <div aria-hidden="true" className="h-4 w-2/3 animate-pulse rounded bg-slate-200" />
    </div>
  );
}

function TimelineChart({ timeline, view }: { timeline: TasteTimeline; view: 'genres' | 'moods' }) {
  const series = timeline[view];
  const subject = view === 'genres' ? 'listening' : 'moods';
  if (timeline.years.length === 0) {
    return (
      <p className="text-sm text-slate-600">
        None of your tracks in this range has both a release year and a genre, so there is nothing to chart
        yet.
      </p>
    );
  }
  const { source } = timeline;
  return (
    <figure className="space-y-3">
      <div className="h-72 w-full">
        <Suspense fallback={<div aria-hidden="true" className="h-full w-full rounded-lg bg-slate-100" />}>
          <TimelineAreaChart years={timeline.years} series={series} />
        </Suspense>
      </div>
      <figcaption className="space-y-1 text-sm text-slate-700">
        <p className="font-medium">{timelineSummary(series, subject)}</p>
        <p className="text-xs text-slate-600">
          {timeline.sample ? 'Sample library. ' : ''}Each year is the year a track was released (the services
          do not tell us when you added it), across {source.trackCount} tracks in {source.playlistCount}{' '}
          playlists
          {source.tracksWithoutGenres > 0
            ? `; ${source.tracksWithoutGenres} tracks without genre information are left out`
            : ''}
          . {view === 'moods' ? 'Moods are derived from genres by a fixed table.' : ''}
        </p>
      </figcaption>
    </figure>
  );
}
