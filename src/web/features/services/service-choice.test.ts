import { describe, expect, it } from 'vitest';
import {
  chooseDestination,
  chooseSource,
  loadServiceChoice,
  SERVICE_CHOICE_STORAGE_KEY,
  saveServiceChoice,
} from './service-choice';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

describe('service choice', () => {
  it('switches the destination when the source takes its service', () => {
    expect(chooseSource({ from: 'spotify', to: 'apple' }, 'apple')).toEqual({ from: 'apple', to: 'spotify' });
  });

  it('keeps the source when the destination changes to the other service', () => {
    expect(chooseDestination({ from: 'apple', to: 'spotify' }, 'spotify')).toEqual({
      from: 'apple',
      to: 'spotify',
    });
  });

  it('never lets the destination equal the source', () => {
    expect(chooseDestination({ from: 'spotify', to: 'apple' }, 'spotify')).toEqual({
      from: 'spotify',
      to: 'apple',
    });
  });

  it('round-trips through storage and ignores tampered values', () => {
    const storage = memoryStorage();
    saveServiceChoice(storage, { from: 'apple', to: 'spotify' });
    expect(loadServiceChoice(storage)).toEqual({ from: 'apple', to: 'spotify' });

    storage.setItem(SERVICE_CHOICE_STORAGE_KEY, JSON.stringify({ from: 'tidal', to: 'apple' }));
    expect(loadServiceChoice(storage)).toBeUndefined();
    storage.setItem(SERVICE_CHOICE_STORAGE_KEY, '{not json');
    expect(loadServiceChoice(storage)).toBeUndefined();
    storage.setItem(SERVICE_CHOICE_STORAGE_KEY, JSON.stringify({ from: 'apple', to: 'apple' }));
    expect(loadServiceChoice(storage)).toBeUndefined();
  });
});
