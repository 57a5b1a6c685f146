import { Link } from 'wouter';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../lib/paths';
import { formatDate, useSavedExports } from '../account-api';

const linkClass =
  'rounded text-violet-700 underline underline-offset-4 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-violet-600';

const formatSize = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${Math.round(bytes / 1024)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export function SavedDataCard() {
  const exports = useSavedExports();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Saved exports and backups</CardTitle>
        <CardDescription>
          Exports you saved to Crossfade storage (Vault+). Backups of your playlists live in{' '}
          <Link href={paths.vault} className={linkClass}>
            Vault+ backups
          </Link>
          .
        </CardDescription>
      </CardHeader>
      <CardContent>
        {exports.isPending ? (
          <Spinner label="Loading your saved exports" />
        ) : exports.isError || exports.data.length === 0 ? (
          <p className="text-sm text-slate-600">No saved exports yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm">
            {exports.data.map((saved) => (
              <li key={saved.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span>
                  <span className="font-medium text-slate-900">{saved.playlistName}</span>{' '}
                  <span className="text-slate-600">
                    ({saved.format.toUpperCase()}, {formatSize(saved.sizeBytes)},{' '}
                    {formatDate(saved.createdAt)})
                  </span>
                </span>
                <a href={`/api/exports/${encodeURIComponent(saved.id)}`} download className={linkClass}>
                  Download {saved.fileName}
                </a>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
