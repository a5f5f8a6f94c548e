/**
 * The upstream VerticalPodAutoscaler CRDs as the surrounding repository installs them (its
 * `manifests/crds`). kube-sim's tests use them as realistic custom resources; kube-sim itself
 * installs only the CRDs its caller names.
 */
import { fileURLToPath } from 'node:url';

export const VPA_CRDS: readonly string[] = [fileURLToPath(new URL('../../../../manifests/crds/', import.meta.url))];
