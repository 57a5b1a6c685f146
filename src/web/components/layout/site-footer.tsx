import { Link } from 'wouter';
import { paths } from '../../lib/paths';

const footerLink =
  'rounded text-sm text-slate-700 underline-offset-4 hover:text-slate-900 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-violet-600 focus-visible:ring-offset-2';

export function SiteFooter() {
  return (
    <footer className="border-t border-slate-200 bg-slate-50">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 sm:px-6 md:flex-row md:items-center md:justify-between">
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-6 gap-y-2">
            <li>
              <Link href={paths.privacy} className={footerLink}>
                Privacy Policy
              </Link>
            </li>
            <li>
              <Link href={paths.terms} className={footerLink}>
                Terms of Service
              </Link>
            </li>
            <li>
              <Link href={paths.help} className={footerLink}>
                Help
              </Link>
            </li>
          </ul>
        </nav>
        <p className="max-w-xl text-xs leading-relaxed text-slate-600">
          © {new Date().getFullYear()} Crossfade. Crossfade is not affiliated with Apple Inc. or Spotify AB.
          Apple Music is a trademark of Apple Inc.; Spotify is a trademark of Spotify AB.
        </p>
      </div>
    </footer>
  );
}
