/**
 * kube-sim against the real server's recorded answers: every corpus entry (corpus.ts) runs against
 * a fresh kube-sim 1.35 and its answer must equal the one a real Kubernetes v1.35.4 gave
 * (recorded-v1.35.4.json). docs/kube-sim-fidelity.md says what is compared.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import { startKubeSim, type KubeSim } from '../../src/kube-sim.ts';
import { VPA_CRDS } from '../support/vpa-crds.ts';
import { CORPUS } from './corpus.ts';
import { dropEntryNamespace, entryNamespace, runEntry, type CorpusTarget } from './corpus-runner.ts';
import { readRecording } from './recording.ts';

const recording = readRecording();
let sim: KubeSim;
let target: CorpusTarget;

before(async () => {
  sim = await startKubeSim({ version: '1.35', crdManifests: VPA_CRDS });
  // Pod creation and user-agent managers as on the real server (off by default for now, docs/kube-sim-fidelity.md).
  sim.server.settings.podCreateDefaults = true;
  sim.server.settings.userAgentManagers = true;
  const kc = new k8s.KubeConfig();
  kc.loadFromString(sim.server.kubeconfig());
  target = {
    kc,
    async settle(what, probe) {
      // Simulated time: up to ten simulated minutes in one-second steps.
      for (let i = 0; i < 600; i += 1) {
        const value = await probe();
        if (value !== undefined) return value;
        await sim.cluster.tick(1000);
      }
      throw new Error(`kube-sim: ${what} did not happen within ten simulated minutes`);
    },
  };
});
after(() => sim?.close());

test('every corpus entry has a recorded real-server answer', () => {
  assert.deepEqual(CORPUS.map((e) => e.id).filter((id) => !recording.answers[id]), []);
});

for (const entry of CORPUS) {
  test(`${entry.id}: ${entry.about}`, async () => {
    const ns = await entryNamespace(target, entry.id);
    try {
      const answer = await runEntry(target, entry, ns);
      assert.deepEqual(answer, recording.answers[entry.id]);
    } finally {
      await dropEntryNamespace(target, ns);
    }
  });
}
