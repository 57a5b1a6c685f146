import type { ReactNode } from 'react';

/**
 * Long-form pages (Privacy Policy, Terms of Service, Help): a table of contents linking to h2 sections,
 * so keyboard and screen-reader users can jump straight to what they came for.
 */
export interface ArticleSection {
  id: string;
  title: string;
  body: ReactNode;
}

export function Article({ sections, updated }: { sections: ArticleSection[]; updated?: string }) {
  return (
    <div className="grid gap-8">
      {updated ? <p className="text-sm text-slate-600">Last updated: {updated}</p> : null}
      <nav aria-labelledby="toc-heading" className="rounded-2xl border border-slate-200 bg-slate-50 p-5">
        <h2 id="toc-heading" className="text-base font-semibold text-slate-900">
          Contents
        </h2>
        <ol className="mt-3 grid list-decimal gap-1 pl-5 text-sm">
          {sections.map((section) => (
            <li key={section.id}>
              <a
                href={`#${section.id}`}
                className="rounded text-violet-700 underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-violet-600"
              >
                {section.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      {sections.map((section) => (
        <section
          key={section.id}
          id={section.id}
          aria-labelledby={`${section.id}-heading`}
          className="scroll-mt-24"
        >
          <h2 id={`${section.id}-heading`} className="text-xl font-semibold text-slate-900">
            {section.title}
          </h2>
          <div className="prose-content mt-3 grid gap-3 text-sm leading-relaxed text-slate-800 [&_a]:text-violet-700 [&_a]:underline [&_h3]:mt-2 [&_h3]:font-semibold [&_h3]:text-slate-900 [&_li]:ml-5 [&_ol]:list-decimal [&_ul]:list-disc">
            {section.body}
          </div>
        </section>
      ))}
    </div>
  );
}
