import { useEffect } from 'react';
import { toast } from '../../hooks/use-toast';

/** One destructive toast per failed load (not per render), as spec section 8 asks for the taste views. */
export function useErrorToast(error: unknown, description: string) {
  useEffect(() => {
    if (error) toast({ title: 'Error', description, variant: 'destructive' });
  }, [error, description]);
}
