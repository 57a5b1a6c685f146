import { Loader2, LogOut } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { useLogout } from '../../../hooks/use-auth';
import { toast } from '../../../hooks/use-toast';
import { serverMessage } from '../../../lib/api-client';

export function SignOutButton() {
  const logout = useLogout();
  const signOut = () =>
    logout.mutate(undefined, {
      onError: (error) => {
        toast({
          title: 'Sign out failed',
          description: serverMessage(error) ?? 'Please try again.',
          variant: 'destructive',
        });
      },
    });
  return (
    <Button variant="outline" onClick={signOut} disabled={logout.isPending}>
      {logout.isPending ? (
        <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" />
      ) : (
        <LogOut aria-hidden="true" className="h-4 w-4" />
      )}
      Sign out
    </Button>
  );
}
