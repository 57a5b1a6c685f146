import { useSyncExternalStore } from 'react';
import { deserializeWizard, INITIAL_WIZARD_STATE, serializeWizard, type WizardState } from './wizard-state';

export interface WizardStore {
  getState: () => WizardState;
  /** The match set id a restored wizard still has to fetch, once. */
  takePendingMatchSetId: () => string | null;
  update: (change: Partial<WizardState> | ((state: WizardState) => WizardState)) => void;
  subscribe: (listener: () => void) => () => void;
}

type WizardStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** One store shared by the four wizard pages, saved to session storage after every change. */
export function createWizardStore(storage: WizardStorage | null, key: string): WizardStore {
  const restored = deserializeWizard(readStorage(storage, key));
  let state = restored.state;
  let pendingMatchSetId = restored.matchSetId;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    takePendingMatchSetId: () => {
      const id = pendingMatchSetId;
      pendingMatchSetId = null;
      return id;
    },
    update(change) {
      const next = typeof change === 'function' ? change(state) : { ...state, ...change };
      if (next === state) return;
      // A saved match set belongs to the playlist and services it was made for.
      if (
        next.matchSet !== null ||
        next.selectedPlaylist?.id !== state.selectedPlaylist?.id ||
        next.sourceService !== state.sourceService ||
        next.destinationService !== state.destinationService
      )
        pendingMatchSetId = null;
      state = next;
      writeStorage(storage, key, serializeWizard(state, pendingMatchSetId));
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

export function useWizard(): WizardState {
  return useSyncExternalStore(wizardStore.subscribe, wizardStore.getState, () => INITIAL_WIZARD_STATE);
}
