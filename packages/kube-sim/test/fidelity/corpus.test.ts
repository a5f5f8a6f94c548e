/**
 * kube-sim against the real servers' recorded answers: for each recorded version (recorded-v1.35.4.json,
 * recorded-v1.36.3.json, ...), every corpus entry (corpus.ts) runs against a fresh kube-sim following
 * that minor version and its answer must equal the one the real Kubernetes gave.
 * docs/kube-sim-fidelity.md says what is compared.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import { startKubeSim, type KubeSim } from '../../src/kube-sim.ts';
import { VPA_CRDS } from '../support/vpa-crds.ts';
import { CORPUS } from './corpus.ts';
import { dropEntryNamespace, entryNamespace, runEntry, type CorpusTarget } from './corpus-runner.ts';
import { readRecording, recordedVersions } from './recording.ts';
import { parseServerVersion } from '../../src/server-version.ts';

test('the recordings cover the versions the lane runs (test/real-cluster/versions.sh)', () => {
  assert.deepEqual(recordedVersions(), ['v1.35.4', 'v1.36.3', 'v1.37.2']);
});

for (const gitVersion of recordedVersions()) {
  describe(`kube-sim ${gitVersion.replace(/^v(\d+\.\d+)\..*$/, '$1')} against real ${gitVersion}`, () => {
    const recording = readRecording(gitVersion);
    const version = parseServerVersion(gitVersion.replace(/\.\d+$/, ''));
    let sim: KubeSim;
    let target: CorpusTarget;

    before(async () => {
      sim = await startKubeSim({ version, crdManifests: VPA_CRDS });
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
  });
}
