import { describe, expect, it } from 'vitest';
import { formatRate, publicLinkUrl } from './links-api';

describe('link presentation', () => {
  it('shows the signup rate as a whole percentage', () => {
    expect(formatRate(0)).toBe('0%');
    expect(formatRate(1 / 3)).toBe('33%');
    expect(formatRate(1)).toBe('100%');
  });

  it('builds the public address from the origin and slug', () => {
    expect(publicLinkUrl('Ab3dEf7h', 'https://crossfade.example')).toBe(
      'https://crossfade.example/l/Ab3dEf7h',
    );
  });
});
