import { ArrowRight, ArrowRightLeft, FileSpreadsheet, Sparkles } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { buttonClasses } from '../components/ui/button';
import { useDocumentTitle } from '../hooks/use-document-title';
import { paths } from '../lib/paths';
import { trackButtonClick } from '../lib/track';

interface Feature {
  title: string;
  description: string;
  icon: ReactNode;
}

const FEATURES: Feature[] = [
  {
    title: 'One-Click Transfer',
    description: 'Move a whole playlist from Spotify to Apple Music, or back, in a single step.',
    icon: <ArrowRightLeft aria-hidden="true" className="h-6 w-6" />,
  },
  {
    title: 'Smart Matching',
    // Issue 26: "AI" only where a model ran. Matching is ISRC and metadata rules everywhere; a language
    // model only breaks ties, and only when ANTHROPIC_API_KEY is set, which this static page cannot know.
    description:
      'Matched by ISRC and metadata: finds the right version of every track and shows how sure it is.',
    icon: <Sparkles aria-hidden="true" className="h-6 w-6" />,
  },
  {
    title: 'CSV Export',
    description: 'Download every transfer as a CSV file to keep a record or import it elsewhere.',
    icon: <FileSpreadsheet aria-hidden="true" className="h-6 w-6" />,
  },
];

export default function HomePage() {
  useDocumentTitle('Crossfade');
  return (
    <>
      <section className="bg-gradient-to-b from-violet-50 to-white">
        <div className="mx-auto flex max-w-4xl flex-col items-center px-4 py-16 text-center sm:px-6 sm:py-24">
          <p className="mb-4 rounded-full bg-white px-3 py-1 text-sm font-medium text-violet-800 shadow-sm ring-1 ring-violet-200">
            Spotify ⇄ Apple Music
          </p>
          <h1 className="text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl md:text-6xl">
            Transfer your playlists between Spotify and Apple Music
          </h1>
          <p className="mt-6 max-w-2xl text-lg text-slate-600">
            Pick a playlist, review how every track matches, and move it across in minutes — with a CSV of the
            result to keep.
          </p>
          <Link
            href={paths.transfer}
            className={buttonClasses('primary', 'lg', 'mt-10')}
            onClick={() => trackButtonClick('get_started', 'home_hero')}
          >
            Get Started
            <ArrowRight aria-hidden="true" className="h-5 w-5" />
          </Link>
        </div>
      </section>
      <section aria-labelledby="features-heading" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <h2 id="features-heading" className="sr-only">
          Features
        </h2>
        <ul className="grid gap-6 md:grid-cols-3">
          {FEATURES.map((feature) => (
            <li key={feature.title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
              <div className="mb-4 flex h-12 w-12 items-center justify-center rounded-xl bg-violet-100 text-violet-800">
                {feature.icon}
              </div>
              <h3 className="text-lg font-semibold text-slate-900">{feature.title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-slate-600">{feature.description}</p>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
