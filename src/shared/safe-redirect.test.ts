import { describe, expect, it } from 'vitest';
import { safeRedirectPath } from './safe-redirect';

const ORIGIN = 'https://crossfade.example';
const check = (value: string | null | undefined) => safeRedirectPath(value, '/fallback', ORIGIN);

describe('safeRedirectPath', () => {
  it('keeps our own paths with their query and fragment', () => {
    expect(check('/transfer')).toBe('/transfer');
    expect(check('/account?tab=services#apple')).toBe('/account?tab=services#apple');
    expect(check('/merge/invite/abc_DEF-123')).toBe('/merge/invite/abc_DEF-123');
    // Dot segments that stay on our origin are normalised, not refused.
    expect(check('/a/../transfer')).toBe('/transfer');
  });

  it('gives the fallback for anything that could leave the origin', () => {
    for (const value of [
      '//evil.example/x',
      '///evil.example/x',
      '/\\evil.example/x',
      '/\\/evil.example/x',
      '\\\\evil.example',
      '/.//evil.example/x',
      '/./\\evil.example',
      '/..//evil.example/x',
      '/a/..//evil.example',
      '/%2e//evil.example/x',
      'https://evil.example/x',
      'https://crossfade.example/transfer',
      'http:/evil.example',
      'javascript:alert(1)',
      'data:text/html,x',
      'evil.example/x',
      'transfer',
      '/\tevil',
      '/\n/evil.example',
      '/\r\n//evil.example',
      '',
      null,
      undefined,
      `/${'a'.repeat(3000)}`,
    ]) {
      expect(check(value), String(value)).toBe('/fallback');
    }
  });

  it('never answers a path a browser would read as another host', () => {
    const tricky = ['/.', '/./', '/.//', '/%2F/evil', '/;//evil', '/?//evil', '/#//evil', '/..', '/.../'];
    for (const value of tricky) {
      const result = check(value);
      expect(result.startsWith('/') && !result.startsWith('//') && !result.includes('\\'), value).toBe(true);
      expect(new URL(result, ORIGIN).origin, value).toBe(ORIGIN);
    }
  });

  it('works without an origin (the web app uses a placeholder one)', () => {
    expect(safeRedirectPath('/account', '/')).toBe('/account');
    expect(safeRedirectPath('/.//evil.example', '/')).toBe('/');
  });
});
