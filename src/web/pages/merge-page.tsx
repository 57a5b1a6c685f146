import { Link } from 'wouter';
import { Page } from '../components/layout/page';
import { Card, CardContent } from '../components/ui/card';
import { Spinner } from '../components/ui/spinner';
import { InvitationList, InviteFriendCard } from '../features/merge';
import { useAuth } from '../hooks/use-auth';
import { paths } from '../lib/paths';

export default function MergePage() {
  const { isAuthenticated, isLoading } = useAuth();
  return (
    <Page title="Friend Merge" description="Blend your playlist with a friend's.">
      {isLoading ? <Spinner /> : null}
      {!isLoading && !isAuthenticated ? (
        <Card>
          <CardContent className="pt-5 text-sm text-slate-700 sm:pt-6">
            <Link href={paths.auth} className="font-medium text-violet-700 underline">
              Sign in
            </Link>{' '}
            to pick a playlist and invite a friend.
          </CardContent>
        </Card>
      ) : null}
      {isAuthenticated ? (
        <div className="grid gap-6">
          <InviteFriendCard />
          <InvitationList />
        </div>
      ) : null}
    </Page>
  );
}
