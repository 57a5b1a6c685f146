import { Link } from 'wouter';
import { toast } from '../../hooks/use-toast';
import { paths } from '../../lib/paths';

/** The server's words, with the "/pricing" they name turned into a link to that page. */
export function WithPricingLink({ message }: { message: string }) {
  const parts = message.split(paths.pricing);
  return (
    <>
      {parts.map((part, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one fixed message, never reordered
        <span key={index}>
          {part}
          {index < parts.length - 1 ? (
            <Link href={paths.pricing} className="font-semibold underline underline-offset-2">
              {paths.pricing}
            </Link>
          ) : null}
        </span>
      ))}
    </>
  );
}

/** A 402 from the plan limits: the server's words, "/pricing" in them a link to the plans. */
export function upgradeToast(message: string): void {
  toast({
    title: 'Upgrade required',
    description: <WithPricingLink message={message} />,
    variant: 'destructive',
  });
}
