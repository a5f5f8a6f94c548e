/**
 * Where the VerticalPodAutoscaler and VerticalPodAutoscalerCheckpoint CRDs live (the repository's
 * `manifests/crds`): Tailor installs them into kube-sim for `tailor sim`, the demo and the tests.
 */
import { fileURLToPath } from 'node:url';

export const VPA_CRD_MANIFESTS: readonly string[] = [fileURLToPath(new URL('../../manifests/crds/', import.meta.url))];
