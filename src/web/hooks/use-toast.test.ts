import { describe, expect, it } from 'vitest';
import { dismissToast, getToasts, toast } from './use-toast';

describe('toast store', () => {
  it('shows one toast at a time, the newest replacing the previous one', () => {
    toast({ title: 'Missing information', variant: 'destructive' });
    toast({ title: 'Welcome back!' });
    expect(getToasts().map((item) => item.title)).toEqual(['Welcome back!']);
    expect(getToasts()[0]?.open).toBe(true);
  });

  it('closes a dismissed toast but keeps it for its exit animation', () => {
    const shown = toast({ title: 'Password too short' });
    dismissToast(shown.id);
    expect(getToasts()).toEqual([expect.objectContaining({ id: shown.id, open: false })]);
  });
});
