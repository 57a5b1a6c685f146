import { toast } from '../../hooks/use-toast';

/** Spec section 8: 'Link copied!' on success, 'Share Failed' when the clipboard refuses. */
export async function copyLink(url: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(url);
    toast({ title: 'Link copied!', description: url });
  } catch {
    toast({
      title: 'Share Failed',
      description: 'Could not generate a shareable link. Please try again.',
      variant: 'destructive',
    });
  }
}
