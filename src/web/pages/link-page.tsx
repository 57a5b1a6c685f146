import { useState } from 'react';
import type { LinkDto } from '../../shared/api/links';
import { Page } from '../components/layout/page';
import { SignedInOnly } from '../components/layout/signed-in-only';
import { CreateLinkForm, LinkCreatedCard, LinkList } from '../features/links';

const TITLE = 'Sniper Link';
const DESCRIPTION = 'Create a sniper link for a track or playlist.';

export default function LinkPage() {
  return (
    <SignedInOnly
      title={TITLE}
      description={DESCRIPTION}
      signInTitle="Sign in to create links"
      signInReason="Your links and their followers are kept in your account."
    >
      <Links />
    </SignedInOnly>
  );
}

function Links() {
  const [created, setCreated] = useState<LinkDto | null>(null);
  return (
    <Page title={TITLE} description={DESCRIPTION}>
      <div className="grid gap-6">
        {created ? (
          <LinkCreatedCard link={created} onCreateAnother={() => setCreated(null)} />
        ) : (
          <CreateLinkForm
            onCreated={(link) => {
              setCreated(link);
            }}
          />
        )}
        <LinkList />
      </div>
    </Page>
  );
}
