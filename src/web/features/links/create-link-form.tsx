import { type FormEvent, useState } from 'react';
import { LINK_MESSAGES, type LinkDto } from '../../../shared/api/links';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../hooks/use-toast';
import { serverMessage } from '../../lib/api-client';
import { track } from '../../lib/track';
import { useCreateLink } from './links-api';

/** Spec section 5: a name is required; the track or playlist URL is optional. */
export function CreateLinkForm({ onCreated }: { onCreated: (link: LinkDto) => void }) {
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const create = useCreateLink();
  const creating = create.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') {
      toast({
        title: LINK_MESSAGES.missingTitle,
        description: LINK_MESSAGES.missingName,
        variant: 'destructive',
      });
      return;
    }
    create.mutate(
      { name: name.trim(), ...(url.trim() ? { url: url.trim() } : {}) },
      {
        onSuccess: (link) => {
          track('feature_used', { feature: 'sniper_link' });
          setName('');
          setUrl('');
          onCreated(link);
        },
        // The server's reason (a bad URL, a missing connection) says what to fix; the spec's text otherwise.
        onError: (error) =>
          toast({
            title: LINK_MESSAGES.createFailedTitle,
            description: serverMessage(error) ?? LINK_MESSAGES.createFailed,
            variant: 'destructive',
          }),
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Create a sniper link</CardTitle>
        <CardDescription>
          One link that opens your track or playlist on Spotify and Apple Music, and collects e-mail signups
          from fans.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-4" aria-label="Create link" onSubmit={submit} noValidate>
          <TextField
            label="Link name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder="My new single"
            maxLength={100}
          />
          <TextField
            label="Track or playlist URL (optional)"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            placeholder="https://open.spotify.com/track/… or https://music.apple.com/…"
            inputMode="url"
          />
          <div>
            <Button type="submit" disabled={creating}>
              {creating ? <Spinner label="Creating link" className="h-4 w-4 text-white" /> : null}
              {creating ? 'Creating…' : 'Create Link'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
