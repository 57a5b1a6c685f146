/** Storefronts the sandbox knows by name; any other storefront a catalog track lists is live too. */
const STOREFRONTS: Record<string, { name: string; language: string }> = {
  us: { name: 'United States', language: 'en-US' },
  gb: { name: 'United Kingdom', language: 'en-GB' },
  ca: { name: 'Canada', language: 'en-CA' },
  au: { name: 'Australia', language: 'en-AU' },
  de: { name: 'Germany', language: 'de-DE' },
  fr: { name: 'France', language: 'fr-FR' },
  jp: { name: 'Japan', language: 'ja' },
  kr: { name: 'Korea, Republic of', language: 'ko-KR' },
  br: { name: 'Brazil', language: 'pt-BR' },
  in: { name: 'India', language: 'en-GB' },
  za: { name: 'South Africa', language: 'en-GB' },
  ru: { name: 'Russia', language: 'ru' },
  mx: { name: 'Mexico', language: 'es-MX' },
  es: { name: 'Spain', language: 'es-ES' },
  it: { name: 'Italy', language: 'it' },
  nl: { name: 'Netherlands', language: 'nl' },
  se: { name: 'Sweden', language: 'sv' },
};

export function storefrontResource(id: string) {
  const known = STOREFRONTS[id];
  const language = known?.language ?? 'en-GB';
  return {
    id,
    type: 'storefronts' as const,
    href: `/v1/storefronts/${id}`,
    attributes: {
      name: known?.name ?? id.toUpperCase(),
      defaultLanguageTag: language,
      supportedLanguageTags: language === 'en-US' ? ['en-US', 'es-MX'] : [language, 'en-GB'],
      explicitContentPolicy: 'allowed',
    },
  };
}

export function liveStorefronts(catalogStorefronts: Iterable<string>): Set<string> {
  const live = new Set(Object.keys(STOREFRONTS));
  for (const storefront of catalogStorefronts) live.add(storefront.toLowerCase());
  return live;
}
