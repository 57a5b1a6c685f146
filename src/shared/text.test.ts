import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cleanJsonText, cleanText, containsUnsafeText, isSafeText, text, UNSAFE_TEXT_MESSAGE } from './text';

describe('the shared text rule', () => {
  it('tells NUL and lone surrogates from well-formed text, emoji pairs included', () => {
    expect(isSafeText('Beyoncé 🎵')).toBe(true);
    for (const bad of ['a\u0000b', 'a\ud800', '\udc00a', '\ud83c']) expect(isSafeText(bad)).toBe(false);
  });

  it('text() refuses such strings with the one message, in any schema built from it', () => {
    const schema = z.object({ name: text().max(10) });
    expect(schema.safeParse({ name: 'fine' }).success).toBe(true);
    const refused = schema.safeParse({ name: 'x\u0000' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe(UNSAFE_TEXT_MESSAGE);
  });

  it('finds them in keys and nested values, and cleans them the way a UTF-8 decoder would', () => {
    expect(containsUnsafeText({ a: [{ 'k\u0000': 1 }] })).toBe(true);
    expect(containsUnsafeText({ a: ['ok', { b: 'fine 🎵' }] })).toBe(false);
    expect(cleanText('a\u0000b\ud800c🎵')).toBe('ab\ufffdc🎵');
    const cleaned = cleanJsonText({ 'n\u0000ame': ['x\udc00', 3, null, { y: 'z\u0000' }] });
    expect(cleaned).toEqual({ name: ['x\ufffd', 3, null, { y: 'z' }] });
    expect(containsUnsafeText(cleaned)).toBe(false);
  });
});
