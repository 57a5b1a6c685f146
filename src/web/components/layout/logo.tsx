import { AudioLines } from 'lucide-react';
import { Link } from 'wouter';
import { paths } from '../../lib/paths';

export function Logo() {
  return (
    <Link
      href={paths.home}
      className="flex shrink-0 items-center gap-2 rounded-lg text-base font-bold sm:text-lg tracking-tight text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-violet-600 focus-visible:ring-offset-2"
    >
      <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-gradient-to-br from-violet-600 to-fuchsia-600 text-white">
        <AudioLines aria-hidden="true" className="h-5 w-5" />
      </span>
      Crossfade
      <span className="sr-only"> home</span>
    </Link>
  );
}
