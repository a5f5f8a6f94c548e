/**
 * In-process admission: what an admission plugin sees and the plugin interface. Mutating plugins
 * change `attributes.object` in place; validating plugins throw an ApiError to reject. Admission
 * webhooks (`webhook-admission.ts`) are plugins too, so in-process rules and webhooks run in the
 * real order: defaulting, mutating admission, validation, validating admission, storage.
 */
import type { ResourceType } from './resource-type.ts';
import type { UserInfo } from './request.ts';
import type { KubeObject } from './types.ts';

/** Admission operations. */
export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** What admission sees of a request. */
export interface AdmissionAttributes {
  operation: AdmissionOperation;
  type: ResourceType;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  /** The object to be stored (CREATE/UPDATE), or the request body for CONNECT (eviction). */
  object: KubeObject | undefined;
  oldObject: KubeObject | undefined;
  user: UserInfo;
  dryRun: boolean;
  /** CreateOptions / UpdateOptions / DeleteOptions of the request. */
  options: Record<string, unknown> | undefined;
  /** Where plugins add warnings for the client (sent as `Warning` headers). */
  warnings?: string[];
}

/** An admission plugin. Both phases are optional. */
export interface AdmissionPlugin {
  name: string;
  /** Mutating phase: modify `attributes.object` in place. */
  mutate?(attributes: AdmissionAttributes): void | Promise<void>;
  /** Validating phase: throw an ApiError to reject. */
  validate?(attributes: AdmissionAttributes): void | Promise<void>;
}

/** Runs plugins in order: all mutating phases, then (after built-in validation) all validating. */
export class AdmissionChain {
  private plugins: { plugin: AdmissionPlugin; order: number }[] = [];

  /**
   * Adds a plugin. Plugins run by `order` (default 0), then in the order added; the webhook
   * plugins use order 1000 so in-process plugins run before webhooks, as compiled-in admission
   * plugins do in a real server. Returns a function that removes the plugin.
   */
  add(plugin: AdmissionPlugin, order = 0): () => void {
    this.plugins.push({ plugin, order });
    this.plugins.sort((a, b) => a.order - b.order);
    return () => {
      this.plugins = this.plugins.filter((p) => p.plugin !== plugin);
    };
  }

  /** The mutating phase of every plugin, in order. */
  async mutate(attributes: AdmissionAttributes): Promise<void> {
    for (const { plugin } of this.plugins) if (plugin.mutate) await plugin.mutate(attributes);
  }

  /** The validating phase of every plugin, in order. */
  async validate(attributes: AdmissionAttributes): Promise<void> {
    for (const { plugin } of this.plugins) if (plugin.validate) await plugin.validate(attributes);
  }
}
