import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { invitationsQuery } from './merge-api';

const STATUS_TEXT = { pending: 'Waiting for your friend', merged: 'Merged', expired: 'Expired' } as const;

/** The inviter's side of "both see the merged result": every invitation with its status and merge. */
export function InvitationList() {
  const query = useQuery(invitationsQuery());
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle>Your invitations</CardTitle>
        <Button variant="outline" size="sm" onClick={() => void query.refetch()} disabled={query.isFetching}>
          Refresh
        </Button>
      </CardHeader>
      <CardContent>
        {query.isPending ? <Spinner label="Loading invitations" /> : null}
        {query.isError ? <p className="text-sm text-red-700">Could not load your invitations.</p> : null}
        {query.data && query.data.length === 0 ? (
          <p className="text-sm text-slate-600">No invitations yet.</p>
        ) : null}
        <ul className="grid gap-2">
          {(query.data ?? []).map((invitation) => (
            <li
              key={invitation.id}
              data-testid="merge-invitation"
              className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-slate-200 px-3 py-2 text-sm"
            >
              <span>
                <span className="font-medium text-slate-900">{invitation.playlistName}</span>
                <span className="text-slate-600"> with {invitation.friendEmail}</span>
              </span>
              <span className="flex items-center gap-3">
                <span className="text-slate-700">{STATUS_TEXT[invitation.status]}</span>
                {invitation.mergedPlaylistId ? (
                  <Link
                    href={`/m/${invitation.mergedPlaylistId}`}
                    className="font-medium text-violet-700 underline"
                  >
                    View merged playlist
                  </Link>
                ) : null}
              </span>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
