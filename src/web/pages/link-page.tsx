import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import type { ShareLinkDto } from '../../shared/api/links';
import { Page } from '../components/layout/page';
import { buttonClasses } from '../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../components/ui/card';
import { Spinner } from '../components/ui/spinner';
import { CreateLinkForm } from '../features/links/create-link-form';
import { LinkCreatedCard } from '../features/links/link-created-card';
import { LinkList } from '../features/links/link-list';
import { LINKS_KEY } from '../features/links/links-api';
import { useAuth } from '../hooks/use-auth';
import { paths } from '../lib/paths';

const TITLE = 'Sniper Link';
const DESCRIPTION = 'Create a shareable link for a track or playlist.';

export default function LinkPage() {
  const { user, isLoading } = useAuth();
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<ShareLinkDto | null>(null);

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
            <CardTitle>Sign in to create links</CardTitle>
            <CardDescription>Your links and their followers are kept in your account.</CardDescription>
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
      <div className="grid gap-6">
        {created ? (
          <LinkCreatedCard link={created} onCreateAnother={() => setCreated(null)} />
        ) : (
          <CreateLinkForm
            onCreated={(link) => {
              setCreated(link);
              void queryClient.invalidateQueries({ queryKey: LINKS_KEY });
            }}
          />
        )}
        <LinkList />
      </div>
    </Page>
  );
}
