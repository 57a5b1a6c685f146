import { useId, useState } from 'react';
import type { CreateInvitationResponse } from '../../../shared/api/merge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { toast } from '../../hooks/use-toast';
import { failureDescription } from '../../lib/failure-description';
import { copyText } from './copy-text';
import { useCreateInvitation } from './merge-api';
import { type ChosenPlaylist, MyPlaylistPicker } from './my-playlist-picker';

/** /merge step one and two: pick a playlist and a friend's e-mail, then the invitation link is ready (the spec's "share link ready"). */
export function InviteFriendCard() {
  const emailId = useId();
  const [mine, setMine] = useState<ChosenPlaylist | null>(null);
  const [email, setEmail] = useState('');
  const invite = useCreateInvitation();
  const sending = invite.isPending;
  const [ready, setReady] = useState<(CreateInvitationResponse & { friendEmail: string }) | null>(null);

  const send = () => {
    const friendEmail = email.trim();
    if (!mine || friendEmail === '') {
      toast({
        title: 'Missing information',
        description: "Please select a playlist and enter your friend's email",
        variant: 'destructive',
      });
      return;
    }
    invite.mutate(
      { playlistId: mine.playlist.id, service: mine.service, friendEmail },
      {
        onSuccess: (created) => setReady({ ...created, friendEmail }),
        onError: (error) =>
          toast({
            title: 'Error creating merge request',
            description: failureDescription('There was a problem creating your merge request', error),
            variant: 'destructive',
          }),
      },
    );
  };

  const copy = async () => {
    if (!ready) return;
    try {
      await copyText(ready.inviteUrl);
      toast({ title: 'Link copied!', description: ready.inviteUrl });
    } catch {
      toast({
        title: 'Share Failed',
        description: 'Could not generate a shareable link. Please try again.',
        variant: 'destructive',
      });
    }
  };

  if (ready) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>Share link ready</CardTitle>
          <CardDescription>
            {ready.emailSent
              ? `We e-mailed ${ready.friendEmail} an invitation. You can also send them this link:`
              : `We could not e-mail ${ready.friendEmail}; send them this link yourself:`}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div className="flex gap-2">
            <Input
              readOnly
              value={ready.inviteUrl}
              aria-label="Invitation link"
              onFocus={(event) => event.currentTarget.select()}
            />
            <Button variant="outline" onClick={copy}>
              Copy Link
            </Button>
          </div>
          <p className="text-sm text-slate-600">
            When your friend picks their playlist, the merged playlist appears in your invitations below. The
            link works until {new Date(ready.expiresAt).toLocaleDateString()}.
          </p>
          <div>
            <Button
              variant="ghost"
              onClick={() => {
                setReady(null);
                setEmail('');
                setMine(null);
              }}
            >
              Invite someone else
            </Button>
          </div>
        </CardContent>
      </Card>
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Invite a friend</CardTitle>
        <CardDescription>
          Pick one of your playlists and we'll e-mail your friend a link to blend theirs in.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <MyPlaylistPicker value={mine} onChange={setMine} />
        <div className="grid gap-2">
          <Label htmlFor={emailId}>Friend's email</Label>
          <Input
            id={emailId}
            type="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            placeholder="friend@example.com"
          />
        </div>
        <Button size="lg" onClick={send} disabled={sending}>
          {sending ? 'Sending...' : 'Send Invite'}
        </Button>
      </CardContent>
    </Card>
  );
}
