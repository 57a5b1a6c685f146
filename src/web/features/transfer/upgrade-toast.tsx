import { Link } from 'wouter';
import { toast } from '../../hooks/use-toast';
import { paths } from '../../lib/paths';

/** A 402 from the plan limits: the server's words plus a way to the plans. */
export function upgradeToast(message: string): void {
  toast({
    title: 'Upgrade required',
    description: (
      <span>
        {message}{' '}
        <Link href={paths.pricing} className="font-semibold underline underline-offset-2">
          See pricing
        </Link>
      </span>
    ),
    variant: 'destructive',
  });
}
