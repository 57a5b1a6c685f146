import { Disc3 } from 'lucide-react';
import type { AlbumMatchView } from '../../../../shared/api/transfer';
import { Card, CardContent } from '../../../components/ui/card';

const METHOD_TEXT: Record<NonNullable<AlbumMatchView['method']>, string> = {
  upc: 'matched by its UPC',
  title_artist_count: 'matched by title, artist and track count',
  title_artist_near_count: 'matched by title and artist; the track count differs, so check it',
};

/** Step 3 for a saved album (issue 14): which destination album it matched, and how, above its tracks. */
export function AlbumMatchCard({
  match,
  destinationLabel,
}: {
  match: AlbumMatchView;
  destinationLabel: string;
}) {
  const album = match.matchedAlbum;
  return (
    <Card>
      <CardContent className="flex items-center gap-3 pt-5 sm:pt-6">
        {album?.imageUrl ? (
          <img
            src={album.imageUrl}
            alt=""
            className="h-14 w-14 shrink-0 rounded-lg bg-slate-100 object-cover"
          />
        ) : (
          <span className="flex h-14 w-14 shrink-0 items-center justify-center rounded-lg bg-slate-100">
            <Disc3 aria-hidden="true" className="h-6 w-6 text-slate-600" />
          </span>
        )}
        <div className="grid min-w-0 gap-1">
          {album && match.method ? (
            <>
              <p className="font-medium text-slate-900">
                Album found on {destinationLabel}: {album.name} — {album.artists.join(', ')} (
                {album.trackCount} tracks)
              </p>
              <p className="text-sm text-slate-600">
                {METHOD_TEXT[match.method]} ({match.confidence}%). It will be saved to your library as an
                album.
              </p>
            </>
          ) : (
            <>
              <p className="font-medium text-slate-900">
                No matching album on {destinationLabel} for {match.sourceAlbum.name}
              </p>
              <p className="text-sm text-slate-600">
                Its tracks were matched one by one and will be saved to your library one by one.
              </p>
            </>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
