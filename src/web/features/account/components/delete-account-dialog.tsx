import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { Loader2, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { useLocation } from 'wouter';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { toast } from '../../../hooks/use-toast';
import { serverMessage } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { track } from '../../../lib/track';
import { useDeleteAccount } from '../account-api';

/** Deleting is permanent, so the person types their username before the button unlocks. */
export function DeleteAccountDialog({ username }: { username: string }) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const inputId = useId();
  const [, navigate] = useLocation();
  const matches = typed.trim().toLowerCase() === username.toLowerCase();

  const remove = useDeleteAccount(() => {
    track('account_deleted');
    setOpen(false);
    navigate(paths.home);
  });
  const deleteAccount = () =>
    remove.mutate(typed.trim(), {
      onSuccess: () => {
        toast({
          title: 'Your account has been deleted',
          description: 'Everything Crossfade stored about you has been removed.',
        });
      },
      onError: (error) =>
        toast({
          title: 'Your account was not deleted',
          description: serverMessage(error) ?? 'Please try again.',
          variant: 'destructive',
        }),
    });

  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setTyped('');
      }}
    >
      <AlertDialog.Trigger asChild>
        <Button variant="destructive">
          <Trash2 aria-hidden="true" className="h-4 w-4" />
          Delete my account
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <AlertDialog.Content className="fixed left-1/2 top-1/2 z-50 grid w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-4 rounded-2xl bg-white p-6 shadow-xl focus-visible:outline-none">
          <AlertDialog.Title className="text-lg font-semibold text-slate-900">
            Delete your account?
          </AlertDialog.Title>
          <AlertDialog.Description className="text-sm text-slate-700">
            This removes your account, connections, transfers, matches, imports, exports, backups, merges,
            links and analytics events from Crossfade. It cannot be undone. Playlists already created on
            Spotify or Apple Music stay there.
          </AlertDialog.Description>
          <form
            className="grid gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              if (matches && !remove.isPending) deleteAccount();
            }}
          >
            <div className="grid gap-2">
              <Label htmlFor={inputId}>
                Type your username, <strong>{username}</strong>, to confirm
              </Label>
              <Input
                id={inputId}
                value={typed}
                autoComplete="off"
                spellCheck={false}
                onChange={(event) => setTyped(event.target.value)}
              />
            </div>
            <div className="flex flex-wrap justify-end gap-3">
              <AlertDialog.Cancel className={buttonClasses('outline')}>Cancel</AlertDialog.Cancel>
              <Button type="submit" variant="destructive" disabled={!matches || remove.isPending}>
                {remove.isPending ? <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" /> : null}
                Delete my account
              </Button>
            </div>
          </form>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
