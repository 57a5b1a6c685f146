import { describe, expect, it } from 'vitest';
import { readCookie } from './cookies';

describe('readCookie', () => {
  it('finds a cookie among others and decodes it', () => {
    expect(readCookie('theme=dark; cf_csrf=a%2Bb%3D; other=1', 'cf_csrf')).toBe('a+b=');
  });

  it('does not match a cookie whose name merely ends the same', () => {
    expect(readCookie('xcf_csrf=wrong', 'cf_csrf')).toBeUndefined();
  });

  it('returns undefined for an empty cookie string', () => {
    expect(readCookie('', 'cf_csrf')).toBeUndefined();
  });
});
