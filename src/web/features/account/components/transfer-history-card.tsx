import { ExternalLink } from 'lucide-react';
import { qualityLabel, type TransferResult } from '../../../../shared/api/transfer';
import { SERVICE_LABELS } from '../../../../shared/services';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { HistoryLink, UndoButton } from '../../history';
import { formatDate, useTransferHistory } from '../account-api';

const STATUS_LABELS: Record<TransferResult['status'], string> = {
  queued: 'Waiting to start',
  running: 'In progress',
  succeeded: 'Completed',
  failed: 'Failed',
};

const linkClass =
  'text-violet-700 underline underline-offset-4 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-violet-600 rounded';

type HistoryEntry = TransferResult;

function TracksCell({ transfer }: { transfer: HistoryEntry }) {
  return (
    <>
      {transfer.addedTracks} of {transfer.totalTracks} added
      <span className="block text-xs text-slate-600">
        {transfer.matchedTracks} matched · {transfer.unmatchedTracks} not found
        {transfer.status === 'succeeded'
          ? ` · ${qualityLabel(transfer.overallConfidence)} (${transfer.overallConfidence}%)`
          : ''}
        {transfer.verifiedTracks !== null
          ? ` · verified: ${transfer.verifiedTracks} of ${transfer.addedTracks}`
          : ''}
      </span>
    </>
  );
}

function StatusCell({ transfer }: { transfer: HistoryEntry }) {
  return (
    <>
      {STATUS_LABELS[transfer.status]}
      {transfer.error ? <span className="block text-xs text-red-800">{transfer.error}</span> : null}
    </>
  );
}

function TransferLinks({ transfer }: { transfer: HistoryEntry }) {
  return (
    <div className="flex flex-wrap gap-3">
      {transfer.destinationUrl ? (
        <a
          href={transfer.destinationUrl}
          target="_blank"
          rel="noreferrer"
          className={linkClass}
          aria-label={`Open ${transfer.name} on ${SERVICE_LABELS[transfer.destinationService]}`}
        >
          Open <ExternalLink aria-hidden="true" className="inline h-3 w-3" />
        </a>
      ) : null}
      {transfer.status === 'succeeded' && transfer.playlistId ? (
        <>
          <HistoryLink
            service={transfer.destinationService}
            playlistId={transfer.playlistId}
            name={transfer.name}
          />
          <UndoButton
            writer={{ transferId: transfer.transferId }}
            label={`Undo the transfer of ${transfer.name}`}
          />
        </>
      ) : null}
      <a
        href={`/api/export/csv/${encodeURIComponent(transfer.transferId)}`}
        download
        className={linkClass}
        aria-label={`Download the CSV of ${transfer.name}`}
      >
        CSV
      </a>
    </div>
  );
}

function PlaylistName({ transfer }: { transfer: HistoryEntry }) {
  return (
    <>
      {transfer.name}
      {transfer.librarySave ? (
        <span className="block text-xs font-normal text-slate-600">{transfer.librarySave.savedTo}</span>
      ) : null}
    </>
  );
}

const route = (transfer: HistoryEntry) =>
  `${SERVICE_LABELS[transfer.sourceService]} → ${SERVICE_LABELS[transfer.destinationService]}`;

/** Narrow screens (under 640 px): one card per transfer, every column as a labelled line (issue 23). */
function HistoryCards({ transfers }: { transfers: HistoryEntry[] }) {
  const line = 'grid grid-cols-[5rem_1fr] gap-2';
  return (
    <ul className="grid gap-3 sm:hidden" aria-label="Transfer history">
      {transfers.map((transfer) => (
        <li key={transfer.transferId} className="rounded-lg border border-slate-200 p-3 text-sm">
          <p className="font-medium text-slate-900">
            <PlaylistName transfer={transfer} />
          </p>
          <p className="text-slate-700">{route(transfer)}</p>
          <dl className="mt-2 grid gap-1.5">
            <div className={line}>
              <dt className="text-slate-600">Date</dt>
              <dd>{formatDate(transfer.createdAt)}</dd>
            </div>
            <div className={line}>
              <dt className="text-slate-600">Tracks</dt>
              <dd>
                <TracksCell transfer={transfer} />
              </dd>
            </div>
            <div className={line}>
              <dt className="text-slate-600">Status</dt>
              <dd>
                <StatusCell transfer={transfer} />
              </dd>
            </div>
            <div className={line}>
              <dt className="text-slate-600">Files</dt>
              <dd>
                <TransferLinks transfer={transfer} />
              </dd>
            </div>
          </dl>
        </li>
      ))}
    </ul>
  );
}

function HistoryTable({ transfers }: { transfers: HistoryEntry[] }) {
  return (
    <section
      className="relative hidden overflow-x-auto focus-visible:outline-2 focus-visible:outline-violet-600 sm:block"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable, WCAG 2.1.1)
      tabIndex={0}
      aria-label="Transfer history"
    >
      <table className="w-full min-w-[40rem] text-left text-sm">
        <caption className="sr-only">Your transfers, newest first</caption>
        <thead className="border-b border-slate-200 text-slate-600">
          <tr>
            {['Playlist', 'From → to', 'Date', 'Tracks', 'Status'].map((heading) => (
              <th key={heading} scope="col" className="py-2 pr-3 font-medium">
                {heading}
              </th>
            ))}
            <th scope="col" className="py-2 font-medium">
              <span className="sr-only">Links</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {transfers.map((transfer) => (
            <tr key={transfer.transferId}>
              <th scope="row" className="py-2 pr-3 font-medium text-slate-900">
                <PlaylistName transfer={transfer} />
              </th>
              <td className="py-2 pr-3">{route(transfer)}</td>
              <td className="py-2 pr-3">{formatDate(transfer.createdAt)}</td>
              <td className="py-2 pr-3">
                <TracksCell transfer={transfer} />
              </td>
              <td className="py-2 pr-3">
                <StatusCell transfer={transfer} />
              </td>
              <td className="py-2">
                <TransferLinks transfer={transfer} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function TransferHistoryCard() {
  const history = useTransferHistory();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Transfer history</CardTitle>
        <CardDescription>
          Every playlist you moved, with a CSV of what happened to each track.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {history.isPending ? (
          <Spinner label="Loading your transfers" />
        ) : history.isError ? (
          <p className="text-sm text-red-800">Your transfers could not be loaded. Please reload the page.</p>
        ) : history.data.length === 0 ? (
          <p className="text-sm text-slate-600">No transfers yet.</p>
        ) : (
          <>
            <HistoryCards transfers={history.data} />
            <HistoryTable transfers={history.data} />
          </>
        )}
      </CardContent>
    </Card>
  );
}
