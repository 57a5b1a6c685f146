import { highlightParts } from '../playlist-search';

/** The name with the searched-for part in <mark>. */
export function HighlightedText({ text, query }: { text: string; query: string }) {
  const parts = highlightParts(text, query);
  let offset = 0;
  return (
    <>
      {parts.map((part) => {
        const key = offset;
        offset += part.text.length;
        return part.match ? (
          <mark key={key} className="rounded-sm bg-yellow-200 text-slate-900">
            {part.text}
          </mark>
        ) : (
          <span key={key}>{part.text}</span>
        );
      })}
    </>
  );
}
