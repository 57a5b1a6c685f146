import { useId } from 'react';
import type { AccountProfile } from '../../../../shared/api/account';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Label } from '../../../components/ui/label';
import { Switch } from '../../../components/ui/switch';
import { toast } from '../../../hooks/use-toast';
import { serverMessage } from '../../../lib/api-client';
import { useSetPublicProfile } from '../account-api';

export function PublicProfileCard({ profile }: { profile: AccountProfile }) {
  const id = useId();
  const update = useSetPublicProfile();
  const setPublic = (value: boolean) =>
    update.mutate(value, {
      onSuccess: (next) =>
        toast({ title: next.publicProfile ? 'Your profile is public' : 'Your profile is private' }),
      onError: (error) =>
        toast({
          title: 'Could not change your profile',
          description: serverMessage(error) ?? 'Please try again.',
          variant: 'destructive',
        }),
    });
  const checked = update.isPending ? (update.variables ?? profile.publicProfile) : profile.publicProfile;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Public profile</CardTitle>
        <CardDescription id={`${id}-hint`}>
          When this is on, other people can see your taste graph and taste timeline. Your playlists, transfers
          and e-mail address always stay private.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <div className="flex items-center gap-3">
          <Switch
            id={id}
            checked={checked}
            disabled={update.isPending}
            aria-describedby={`${id}-hint`}
            onCheckedChange={setPublic}
          />
          <Label htmlFor={id}>Show my taste graph and timeline to others</Label>
        </div>
      </CardContent>
    </Card>
  );
}
