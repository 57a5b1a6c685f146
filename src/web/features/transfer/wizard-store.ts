import { useSyncExternalStore } from 'react';
import {
  deserializeWizard,
  INITIAL_WIZARD_CHOICES,
  serializeWizard,
  type WizardChoices,
} from './wizard-state';

/**
 * The person's choices in the wizard, shared by its four pages and saved to session storage after every
 * change. Server state (the match set, the transfer) is not kept here: it lives in the query cache
 * (`wizard-queries.ts`), under the ids this store holds.
 */
export interface WizardStore {
  getState: () => WizardChoices;
  update: (change: Partial<WizardChoices> | ((state: WizardChoices) => WizardChoices)) => void;
  subscribe: (listener: () => void) => () => void;
}

type WizardStorage = Pick<Storage, 'getItem' | 'setItem'>;

export function createWizardStore(storage: WizardStorage | null, key: string): WizardStore {
  let state = deserializeWizard(readStorage(storage, key));
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    update(change) {
      const next = typeof change === 'function' ? change(state) : { ...state, ...change };
      if (next === state) return;
      state = next;
      writeStorage(storage, key, serializeWizard(state));
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function readStorage(storage: WizardStorage | null, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function writeStorage(storage: WizardStorage | null, key: string, value: string): void {
  try {
    storage?.setItem(key, value);
  } catch {
    // Private mode or a full quota: the wizard still works for this page view.
  }
}

export const WIZARD_STORE_KEY = 'crossfade.wizard';

export const wizardStore = createWizardStore(
  typeof sessionStorage === 'undefined' ? null : sessionStorage,
  WIZARD_STORE_KEY,
);

export function useWizardChoices(): WizardChoices {
  return useSyncExternalStore(wizardStore.subscribe, wizardStore.getState, () => INITIAL_WIZARD_CHOICES);
}
