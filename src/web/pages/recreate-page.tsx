import { useState } from 'react';
import { Page } from '../components/layout/page';
import { SignedInOnly } from '../components/layout/signed-in-only';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../components/ui/card';
import { ChooseDestination, type RebuiltPlaylist, RecreateSources } from '../features/recreate';

const TITLE = 'Recreate a Playlist';
const DESCRIPTION = 'Rebuild a playlist you have lost.';

export default function RecreatePage() {
  return (
    <SignedInOnly
      title={TITLE}
      description={DESCRIPTION}
      signInTitle="Sign in to recreate a playlist"
      signInReason="The rebuilt playlist is created in your own Spotify or Apple Music library."
    >
      <Recreate />
    </SignedInOnly>
  );
}

function Recreate() {
  const [result, setResult] = useState<RebuiltPlaylist | null>(null);
  return (
    <Page title={TITLE} description={DESCRIPTION}>
      {result ? (
        <ChooseDestination result={result} onStartOver={() => setResult(null)} />
      ) : (
        <Card>
          <CardHeader>
            <CardTitle>Where is the playlist now?</CardTitle>
            <CardDescription>
              Paste the songs you remember, upload an old export, or paste its share URL if it still opens.
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
