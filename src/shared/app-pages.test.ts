import { describe, expect, it } from 'vitest';
import { isAppPage, PAGE_PATHS } from './app-pages';

describe('isAppPage', () => {
  it('knows every page and the pages with an id', () => {
    for (const path of Object.values(PAGE_PATHS)) expect(isAppPage(path), path).toBe(true);
    expect(isAppPage('/transfer/')).toBe(true);
    expect(isAppPage('/l/my-mix')).toBe(true);
    expect(isAppPage('/m/5e0c1f0e-0000-4000-8000-000000000000')).toBe(true);
    expect(isAppPage('/merge/invite/abc_DEF-123')).toBe(true);
  });

  it('does not take unknown paths for pages', () => {
    for (const path of ['/nope', '/transfers', '/l', '/l/a/b', '/merge/invite', '/account/x', '/index.php']) {
      expect(isAppPage(path), path).toBe(false);
    }
  });
});
