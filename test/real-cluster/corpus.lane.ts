/**
 * The fidelity corpus (packages/kube-sim/test/fidelity) against the real cluster: each entry's
 * answer must equal the one recorded for the cluster's version (recorded-<gitVersion>.json) that
 * kube-sim is held to on every `npm test`. With
 * `CORPUS_RECORD=1` it writes the answers as the new recording instead (with the command, date and
 * server version; `CORPUS_ONLY=<id fragment>` runs and records only those entries). Runs with `npm run test:real-cluster corpus` (as root), not with `npm test`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import { CORPUS } from 'kube-sim/test/fidelity/corpus';
import { dropEntryNamespace, entryNamespace, runEntry, type Answer, type CorpusTarget } from 'kube-sim/test/fidelity/corpus-runner';
import { readRecording, writeRecording } from 'kube-sim/test/fidelity/recording';
import { laneKubeConfig, waitFor } from './lane-cluster.ts';

const RECORD = process.env.CORPUS_RECORD === '1';
/** Runs only the entries whose id contains this (e.g. to record one entry again). */
const ONLY = process.env.CORPUS_ONLY;
const kc = laneKubeConfig();
/** The cluster's version, e.g. v1.36.3: whose recording (recorded-<version>.json) is compared or written. */
const gitVersion = (await kc.makeApiClient(k8s.VersionApi).getCode()).gitVersion;
const target: CorpusTarget = { kc, settle: (what, probe) => waitFor(what, 180_000, probe) };
const answers: Record<string, Answer> = {};

before(async () => {
  // The VPA CRDs; loadYaml maps x-kubernetes-* names to client-node's (docs/real-cluster.md).
  const ext = kc.makeApiClient(k8s.ApiextensionsV1Api);
  for (const file of ['verticalpodautoscalers.yaml', 'verticalpodautoscalercheckpoints.yaml']) {
    const crd = k8s.loadYaml<k8s.V1CustomResourceDefinition>(readFileSync(new URL(`../../manifests/crds/${file}`, import.meta.url), 'utf8'));
    await ext.createCustomResourceDefinition({ body: crd }).catch((err: unknown) => {
      if ((err as { code?: number }).code !== 409) throw err;
    });
  }
  await waitFor('the VPA CRD Established', 60_000, async () => {
    const crd = await ext.readCustomResourceDefinition({ name: 'verticalpodautoscalers.autoscaling.k8s.io' }).catch(() => undefined);
    return crd?.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ? true : undefined;
  });
});

after(async () => {
  if (!RECORD) return;
  // A partial run (CORPUS_ONLY) replaces only the answers it has.
  const kept = ONLY ? readRecording(gitVersion).answers : {};
  writeRecording(gitVersion, {
    captured: {
      command: `CORPUS_RECORD=1 TAILOR_KUBERNETES_VERSION=${gitVersion} npm run test:real-cluster corpus (test/real-cluster/corpus.lane.ts)`,
      at: new Date().toISOString(),
      server: `kube-apiserver ${gitVersion} (the lane's two-node cluster, etcd as test/real-cluster/versions.sh picks for it)`,
      note: 'answers reduced by corpus-runner.ts (code, reason, causes field/reason, normalised message, view); edit only by recording again',
    },
    answers: Object.fromEntries(CORPUS.map((e) => [e.id, answers[e.id] ?? kept[e.id]]).filter(([, a]) => a !== undefined)),
  });
});

const recorded = RECORD ? undefined : readRecording(gitVersion).answers;
for (const entry of CORPUS.filter((e) => !ONLY || e.id.includes(ONLY))) {
  test(`${entry.id}: ${entry.about}`, async () => {
    const ns = await entryNamespace(target, entry.id);
    try {
      const answer = await runEntry(target, entry, ns);
      answers[entry.id] = answer;
      if (recorded) assert.deepEqual(answer, recorded[entry.id]);
    } finally {
      // Each entry's pods hold cpu on the two small nodes: free it before the next entry.
      await dropEntryNamespace(target, ns);
    }
  });
}
