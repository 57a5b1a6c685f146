import { Link } from 'wouter';
import { paths } from '../../lib/paths';

/** Spec section 2: ZIP and Save to Cloud tell the person a Vault+ subscription is required. */
export function VaultNotice({ what }: { what: string }) {
  return (
    <p className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
      {what} is a Vault+ premium feature. A Vault+ subscription is required to use it.{' '}
      <Link href={paths.pricing} className="font-semibold underline underline-offset-2">
        See plans
      </Link>
    </p>
  );
}
