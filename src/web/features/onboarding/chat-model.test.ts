import { describe, expect, it } from 'vitest';
import { canComplete, canSend, newMessage, remainingPacing, sendsOnKey } from './chat-model';

describe('the onboarding chat rules', () => {
  it('Send is disabled for blank text and while a reply is pending', () => {
    expect(canSend('', false)).toBe(false);
    expect(canSend('  \n ', false)).toBe(false);
    expect(canSend('hi', true)).toBe(false);
    expect(canSend('hi', false)).toBe(true);
  });

  it('Enter sends, Shift+Enter and IME composition do not', () => {
    expect(sendsOnKey({ key: 'Enter', shiftKey: false })).toBe(true);
    expect(sendsOnKey({ key: 'Enter', shiftKey: true })).toBe(false);
    expect(sendsOnKey({ key: 'Enter', shiftKey: false, isComposing: true })).toBe(false);
    expect(sendsOnKey({ key: 'a', shiftKey: false })).toBe(false);
  });

  it('completing needs at least 4 messages', () => {
    const three = [newMessage('assistant', 'a'), newMessage('user', 'b'), newMessage('assistant', 'c')];
    expect(canComplete(three)).toBe(false);
    expect(canComplete([...three, newMessage('user', 'd')])).toBe(true);
  });

  it('messages get distinct ids and keep only non-empty options', () => {
    const a = newMessage('user', 'x');
    const b = newMessage('assistant', 'y', []);
    expect(a.id).not.toBe(b.id);
    expect(b.options).toBeUndefined();
    expect(newMessage('assistant', 'z', ['One']).options).toEqual(['One']);
  });

  it('paces only the local engine, up to about a second', () => {
    expect(remainingPacing('local', 200)).toBe(800);
    expect(remainingPacing('local', 1500)).toBe(0);
    expect(remainingPacing('anthropic', 0)).toBe(0);
  });
});
