import { useState } from 'react';
import { Link } from 'wouter';
import { Page } from '../components/layout/page';
import { buttonClasses } from '../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../components/ui/card';
import { Spinner } from '../components/ui/spinner';
import { ChooseDestination } from '../features/recreate/choose-destination';
import type { RebuiltPlaylist } from '../features/recreate/recreate-api';
import { RecreateSources } from '../features/recreate/recreate-sources';
import { useAuth } from '../hooks/use-auth';
import { paths } from '../lib/paths';

const TITLE = 'Recreate a Playlist';
const DESCRIPTION = 'Rebuild a playlist you have lost.';

export default function RecreatePage() {
  const { user, isLoading } = useAuth();
  const [result, setResult] = useState<RebuiltPlaylist | null>(null);

  if (isLoading) {
    return (
      <Page title={TITLE} description={DESCRIPTION}>
        <Spinner label="Loading" />
      </Page>
    );
  }
  if (!user) {
    return (
      <Page title={TITLE} description={DESCRIPTION}>
        <Card>
          <CardHeader>
            <CardTitle>Sign in to recreate a playlist</CardTitle>
            <CardDescription>
              The rebuilt playlist is created in your own Spotify or Apple Music library.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <Link href={paths.auth} className={buttonClasses('primary')}>
              Sign in
            </Link>
          </CardContent>
        </Card>
      </Page>
    );
  }
  return (
    <Page title={TITLE} description={DESCRIPTION}>
      {result ? (
        <ChooseDestination result={result} onStartOver={() => setResult(null)} />
      ) : (
        <Card>
          <CardHeader>
            <CardTitle>Where is the playlist now?</CardTitle>
            <CardDescription>
              Paste the songs you remember, upload an old export, or paste its share link if it still opens.
              Every song is matched again and you review anything uncertain before it is created.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <RecreateSources onRebuilt={setResult} />
          </CardContent>
        </Card>
      )}
    </Page>
  );
}
