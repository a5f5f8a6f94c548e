/**
 * What the cluster half of kube-sim needs from the API server half: the in-process store (reads,
 * conflict-free read-modify-write for status, deletes, change subscriptions) and the create path
 * through defaulting, admission webhooks and validation. `KubeSimApiServer` satisfies it.
 *
 * Store keys are `pods`, `nodes`, `events`, `replicasets.apps`, ...; cluster-scoped objects live
 * in namespace `''`.
 */

/** An object as the store holds it (plain JSON, frozen: clone before changing). */
export interface StoredObject {
  apiVersion?: string;
  kind?: string;
  metadata: { name?: string; namespace?: string; uid?: string; [key: string]: unknown };
  spec?: unknown;
  status?: unknown;
  [key: string]: unknown;
}

export interface StoreChange {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  resource: string;
  object: StoredObject;
}

export interface ClusterStore {
  get(resource: string, namespace: string, name: string): StoredObject | undefined;
  list(resource: string, namespace?: string, filter?: (obj: StoredObject) => boolean): StoredObject[];
  create(resource: string, input: StoredObject): StoredObject;
  mutate(resource: string, namespace: string, name: string, change: (draft: StoredObject) => StoredObject | void): StoredObject;
  delete(resource: string, namespace: string, name: string): unknown;
  subscribe(resource: string, listener: (event: StoreChange) => void): () => void;
}

export interface ClusterHost {
  readonly store: ClusterStore;
  /** Creates an object through the API server's create path (admission webhooks run). */
  create(obj: StoredObject): Promise<StoredObject>;
  /** Binds a pod to a node through `pods/binding`, as a scheduler does. */
  bind(namespace: string, name: string, node: string): Promise<void>;
}
