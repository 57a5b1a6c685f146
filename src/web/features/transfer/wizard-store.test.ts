import { describe, expect, it } from 'vitest';
import { withPlaylist } from './wizard-state';
import { createWizardStore } from './wizard-store';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

describe('wizard store', () => {
  it('survives a reload: a new store on the same storage sees the choices', () => {
    const storage = memoryStorage();
    const first = createWizardStore(storage, 'wizard');
    first.update({ sourceService: 'apple', destinationService: 'spotify', currentStep: 2 });
    const second = createWizardStore(storage, 'wizard');
    expect(second.getState()).toMatchObject({
      sourceService: 'apple',
      destinationService: 'spotify',
      currentStep: 2,
    });
  });

  it('tells subscribers about changes', () => {
    const storage = memoryStorage();
    storage.setItem('wizard', JSON.stringify({ matchSetId: 'abc' }));
    const store = createWizardStore(storage, 'wizard');
    expect(store.getState().matchSetId).toBe('abc');
    let calls = 0;
    const unsubscribe = store.subscribe(() => {
      calls += 1;
    });
    store.update({ error: 'Please select a playlist' });
    unsubscribe();
    store.update({ error: null });
    expect(calls).toBe(1);
  });

  it('keeps working when storage refuses writes', () => {
    const store = createWizardStore(
      {
        getItem: () => null,
        setItem: () => {
          throw new Error('QuotaExceededError');
        },
      },
      'wizard',
    );
    store.update({ sourceService: 'spotify' });
    expect(store.getState().sourceService).toBe('spotify');
  });
});

describe('wizard store and a saved match set', () => {
  const saved = JSON.stringify({
    sourceService: 'spotify',
    destinationService: 'apple',
    selectedPlaylist: { id: 'pl-1', name: 'Road Trip', trackCount: 2 },
    matchSetId: 'set-1',
  });

  it('keeps the saved id across another reload', () => {
    const storage = memoryStorage();
    storage.setItem('wizard', saved);
    createWizardStore(storage, 'wizard').update({ currentStep: 4 });
    expect(createWizardStore(storage, 'wizard').getState().matchSetId).toBe('set-1');
  });

  it('forgets the saved id when another playlist is chosen', () => {
    const storage = memoryStorage();
    storage.setItem('wizard', saved);
    const store = createWizardStore(storage, 'wizard');
    store.update((state) => withPlaylist(state, { id: 'pl-2', name: 'Long Haul', trackCount: 9 }));
    expect(store.getState().matchSetId).toBeNull();
    expect(createWizardStore(storage, 'wizard').getState().matchSetId).toBeNull();
  });
});
