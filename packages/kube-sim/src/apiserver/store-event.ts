/** A change in the object store, as watches and in-process subscribers see it. */
import type { KubeObject } from './types.ts';

/** Watch event types that carry an object change. */
export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One committed change. `object` is the new state (the last state for DELETED). */
export interface StoreEvent {
  type: ChangeType;
  /** Store key of the resource (`pods`, `deployments.apps`). */
  resource: string;
  object: KubeObject;
  /** The state before the change (MODIFIED and DELETED). */
  oldObject?: KubeObject;
  /** The global resourceVersion this change was committed at. */
  resourceVersion: number;
}

/** Receives committed changes in resourceVersion order. Must not throw. */
export type StoreListener = (event: StoreEvent) => void;
