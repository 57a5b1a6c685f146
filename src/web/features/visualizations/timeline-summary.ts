/**
 * The sentence under a timeline chart (spec section 2: "a summary sentence built from series names"):
 * series ranked by their average share over the years shown; "Other" is never named as a leader.
 */
export function timelineSummary(series: Record<string, number[]>, subject: string): string {
  const ranked = Object.entries(series)
    .filter(([name]) => name !== 'Other')
    .map(([name, values]) => ({
      name,
      average: values.length > 0 ? values.reduce((sum, value) => sum + value, 0) / values.length : 0,
    }))
    .filter((entry) => entry.average > 0)
    .sort((a, b) => b.average - a.average || a.name.localeCompare(b.name))
    .map((entry) => entry.name);
  const [first, second, third] = ranked;
  if (!first) return `There is not enough information to describe your ${subject} yet.`;
  if (!second) return `${first} leads your ${subject}.`;
  if (!third) return `${first} leads your ${subject}, followed by ${second}.`;
  return `${first} leads your ${subject}, followed by ${second} and ${third}.`;
}

/** Recharts wants one object per x value: `{year: '2021', Pop: 40, Rock: 60}`. */
export function chartRows(years: string[], series: Record<string, number[]>) {
  return years.map((year, index) => {
    const row: Record<string, string | number> = { year };
    for (const [name, values] of Object.entries(series)) row[name] = values[index] ?? 0;
    return row;
  });
}
