/**
 * Where the VerticalPodAutoscaler and VerticalPodAutoscalerCheckpoint CRDs live (the repository's
 * `manifests/crds`): Tailor installs them into kube-sim for `tailor sim`, the demo and the tests.
 */
import { packageFile } from './package-files.ts';

export const VPA_CRD_MANIFESTS: readonly string[] = [packageFile('manifests/crds/')];
