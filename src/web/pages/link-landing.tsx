import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useParams } from 'wouter';
import { LINK_MESSAGES } from '../../shared/api/links';
import { Page } from '../components/layout/page';
import { Alert } from '../components/ui/alert';
import { Button, buttonClasses } from '../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../components/ui/card';
import { Spinner } from '../components/ui/spinner';
import { TextField } from '../components/ui/text-field';
import { publicLinkQuery, TargetSummary, useSignUpToLink } from '../features/links';
import { toast } from '../hooks/use-toast';
import { serverMessage } from '../lib/api-client';

function SignupForm({ slug }: { slug: string }) {
  const [email, setEmail] = useState('');
  const signUp = useSignUpToLink(slug);
  const pending = signUp.isPending;
  const done = signUp.data?.message ?? null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (email.trim() === '') {
      toast({
        title: LINK_MESSAGES.emailRequiredTitle,
        description: LINK_MESSAGES.emailRequired,
        variant: 'destructive',
      });
      return;
    }
    signUp.mutate(email.trim(), {
      onError: (error) =>
        toast({
          title: 'Signup failed',
          description: serverMessage(error) ?? 'Please try again.',
          variant: 'destructive',
        }),
    });
  };

  if (done) return <Alert aria-label="Signup">{done}</Alert>;
  return (
    <form className="grid gap-3" aria-label="Sign up for updates" onSubmit={submit} noValidate>
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        placeholder="you@example.com"
      />
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? 'Signing up…' : 'Sign Up'}
        </Button>
      </div>
    </form>
  );
}

/** The public page a sniper link opens: no sign-in; opening it counts a view. */
export default function LinkLandingPage() {
  const { slug = '' } = useParams<{ slug: string }>();
  const link = useQuery(publicLinkQuery(slug));

  if (link.isPending) {
    return (
      <Page title="Loading link" width="narrow">
        <Spinner label="Loading link" />
      </Page>
    );
  }
  if (link.isError) {
    return (
      <Page title="Link unavailable" width="narrow">
        <Alert variant="destructive">{serverMessage(link.error) ?? 'This link could not be loaded.'}</Alert>
      </Page>
    );
  }
  const { name, target, open } = link.data;
  return (
    <Page title={name} width="narrow">
      <div className="grid gap-6">
        <Card>
          <CardContent className="grid gap-5 pt-5 sm:pt-6">
            {target ? <TargetSummary target={target} size="lg" /> : null}
            <div className="grid gap-2 sm:grid-cols-2">
              <a
                href={open.spotify.url}
                target="_blank"
                rel="noopener noreferrer"
                className={buttonClasses('primary', 'md', 'bg-emerald-700 hover:bg-emerald-800')}
              >
                Open in Spotify
              </a>
              <a
                href={open.apple.url}
                target="_blank"
                rel="noopener noreferrer"
                className={buttonClasses('primary', 'md', 'bg-rose-700 hover:bg-rose-800')}
              >
                Open in Apple Music
              </a>
            </div>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Get updates</CardTitle>
            <CardDescription>Sign up with your e-mail to hear about new releases.</CardDescription>
          </CardHeader>
          <CardContent>
            <SignupForm slug={slug} />
          </CardContent>
        </Card>
      </div>
    </Page>
  );
}
