import { Sparkles } from 'lucide-react';
import type { ReactNode } from 'react';
import {
  BRIDGE_TRACK_PREFIX,
  type InsightWriter,
  MERGE_PREVIEW_COUNT,
  type MergedTrack,
  type MergePlaylistsResponse,
} from '../../../shared/api/merge';
import { toast } from '../../hooks/use-toast';
import { track } from '../../lib/track';

function Badge({ children, tone = 'slate' }: { children: ReactNode; tone?: 'slate' | 'violet' | 'emerald' }) {
  const tones = {
    slate: 'bg-slate-100 text-slate-800',
    violet: 'bg-violet-100 text-violet-900',
    emerald: 'bg-emerald-100 text-emerald-900',
  };
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ${tones[tone]}`}
    >
      {children}
    </span>
  );
}

/** A merge made from either side (the panel or an invitation): recorded, and announced with its size. */
export function announceMerged(merged: MergePlaylistsResponse): void {
  track('friend_merge_completed', { total_tracks: merged.tracks.length });
  toast({
    title: 'Playlists merged!',
    description: `${merged.playlistName} · ${merged.tracks.length} tracks`,
  });
}

export const isBridgeTrack = (track: { id: string }) => track.id.startsWith(BRIDGE_TRACK_PREFIX);

/**
 * The insight's heading says "AI" only when a model wrote it (issue 26); otherwise it names what the local
 * rules did. `public` is the merged playlist's page, read by visitors too, so it does not say "your".
 */
export function insightHeading(writtenBy: InsightWriter | undefined, audience: 'reader' | 'public'): string {
  if (writtenBy === 'anthropic') return 'AI Insight';
  return audience === 'public'
    ? "Insight: written from the two playlists' overlap"
    : "Insight: written from your playlists' overlap";
}

/** Spec section 2's result view: name, count, badges, the insight and the tracks (8 unless `showAll`). */
export function MergeResultView({
  playlistName,
  tracks,
  insightSummary,
  insightWrittenBy,
  audience = 'reader',
  showAll = false,
  actions,
}: {
  playlistName: string;
  tracks: MergedTrack[];
  insightSummary: string;
  insightWrittenBy?: InsightWriter | undefined;
  audience?: 'reader' | 'public';
  showAll?: boolean;
  actions?: ReactNode;
}) {
  const shown = showAll ? tracks : tracks.slice(0, MERGE_PREVIEW_COUNT);
  const more = tracks.length - shown.length;
  return (
    <section aria-label="Merged playlist" className="grid gap-4">
      <div>
        <h3 className="text-xl font-semibold text-slate-900">{playlistName}</h3>
        <p className="text-sm text-slate-600">{tracks.length} tracks</p>
        <div className="mt-2 flex flex-wrap gap-2">
          <Badge tone="violet">Collaborative</Badge>
          <Badge tone="emerald">Enhanced</Badge>
          <Badge>Smart Mix</Badge>
        </div>
      </div>
      <div className="rounded-lg border border-violet-200 bg-violet-50 p-4">
        <p className="flex items-center gap-2 text-sm font-semibold text-violet-900">
          {insightWrittenBy === 'anthropic' ? <Sparkles aria-hidden="true" className="h-4 w-4" /> : null}
          {insightHeading(insightWrittenBy, audience)}
        </p>
        <p className="mt-1 text-sm text-slate-800">{insightSummary}</p>
      </div>
      <ol className="grid gap-1" aria-label="Tracks">
        {shown.map((track, index) => (
          <li
            key={track.id}
            className="flex items-center justify-between gap-3 rounded-lg px-2 py-1.5 odd:bg-slate-50"
          >
            <span className="min-w-0 text-sm">
              <span className="mr-2 text-slate-500">{index + 1}.</span>
              <span className="font-medium text-slate-900">{track.name}</span>
              <span className="text-slate-600"> — {track.artists.join(', ')}</span>
            </span>
            {isBridgeTrack(track) ? <Badge tone="emerald">Bridge</Badge> : null}
          </li>
        ))}
      </ol>
      {more > 0 ? <p className="text-sm text-slate-600">+ {more} more tracks</p> : null}
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </section>
  );
}
