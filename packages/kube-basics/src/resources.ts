/**
 * The two resources a container requests and Tailor manages, as plain numbers: CPU in millicores,
 * memory in bytes. Shared by Tailor and kube-sim.
 */

/** CPU (millicores) and memory (bytes). Values may be fractional until policy rounds them. */
export interface Resources {
  cpu: number;
  memory: number;
}

/** The resource names Tailor manages. */
export type ResourceName = keyof Resources;
export const RESOURCE_NAMES: readonly ResourceName[] = ['cpu', 'memory'];
