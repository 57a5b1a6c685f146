import { Link } from 'wouter';
import { useAuth } from '../../hooks/use-auth';
import { cn } from '../../lib/cn';
import { paths } from '../../lib/paths';
import { trackButtonClick } from '../../lib/track';
import { buttonClasses } from '../ui/button';
import { Logo } from './logo';

const navLink = (active: boolean) =>
  cn(
    'whitespace-nowrap rounded-md px-2 py-2 text-sm font-medium sm:px-3 transition-colors focus-visible:outline-none',
    'focus-visible:ring-2 focus-visible:ring-violet-600 focus-visible:ring-offset-2',
    active ? 'text-violet-800 bg-violet-50' : 'text-slate-700 hover:text-slate-900 hover:bg-slate-100',
  );

/** Spec section 2: logo, Features, and My Account when signed in or Get Started otherwise. */
export function SiteHeader() {
  const { isAuthenticated, isLoading } = useAuth();
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-3 sm:px-6">
        <Logo />
        <nav aria-label="Main" className="flex items-center gap-1 sm:gap-2">
          <Link href={paths.visualizations} className={navLink}>
            Features
          </Link>
          {isLoading ? (
            <span className="inline-block h-9 w-24" aria-hidden="true" />
          ) : isAuthenticated ? (
            <Link href={paths.account} className={navLink}>
              My Account
            </Link>
          ) : (
            <Link
              href={paths.transfer}
              className={buttonClasses('primary', 'sm', 'px-3')}
              onClick={() => trackButtonClick('get_started', 'header')}
            >
              Get Started
            </Link>
          )}
        </nav>
      </div>
    </header>
  );
}
