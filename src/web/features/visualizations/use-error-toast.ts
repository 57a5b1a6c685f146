import { useEffect } from 'react';
import { toast } from '../../hooks/use-toast';
import { failureDescription } from '../../lib/failure-description';

/**
 * One destructive toast per failed load (not per render), as spec section 8 asks for the taste views: the
 * spec's sentence, then the server's reason on its own line when it gave one.
 */
export function useErrorToast(error: unknown, description: string) {
  useEffect(() => {
    if (error)
      toast({ title: 'Error', description: failureDescription(description, error), variant: 'destructive' });
  }, [error, description]);
}
