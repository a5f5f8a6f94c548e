/**
 * docs/migration.md as migration-in-cluster.lane.ts reads it (migration-doc.ts): the commands of the
 * switch, the check and the switch back, and the overlay, so an edit of the page that the lane could
 * no longer run fails here first.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import { commandLines, readMigrationDoc, UPDATER_START } from './migration-doc.ts';

const page = readFileSync(join(import.meta.dirname, '../../docs/migration.md'), 'utf8');

test("the page's switch: upstream's three stopped, its webhook configuration deleted, the overlay applied, the updater started last", () => {
  const doc = readMigrationDoc(page);
  assert.deepEqual(doc.switchToTailor, [
    'kubectl -n kube-system scale deployment vpa-recommender vpa-updater vpa-admission-controller --replicas=0',
    'kubectl delete mutatingwebhookconfiguration vpa-webhook-config --ignore-not-found',
    'kubectl apply -k my-overlay',
    'kubectl -n tailor-system scale deployment tailor-updater --replicas=1',
  ]);
  assert.equal(
    doc.switchToTailor.findIndex((c) => UPDATER_START.test(c)),
    doc.switchToTailor.length - 1,
  );
  assert.deepEqual(doc.switchBack, [
    'kubectl -n tailor-system scale deployment tailor-recommender tailor-updater tailor-admission --replicas=0',
    'kubectl delete mutatingwebhookconfiguration vpa-webhook-config',
    'kubectl -n kube-system scale deployment vpa-recommender vpa-updater vpa-admission-controller --replicas=1',
  ]);
  assert.equal(doc.check.length, 3);
  assert.match(doc.check[2]!, /^kubectl get mutatingwebhookconfiguration vpa-webhook-config -o jsonpath='.*clientConfig\.service\.name}'$/);
});

test("the page's overlay: manifests/install, the upstream-webhook component, the vpa strategy, the updater at 0", () => {
  const overlay = k8s.loadYaml<{
    resources: string[];
    components: string[];
    configMapGenerator: { name: string; behavior: string; literals: string[] }[];
    replicas: { name: string; count: number }[];
  }>(readMigrationDoc(page).overlay);
  assert.deepEqual(overlay.resources, ['../manifests/install']);
  assert.deepEqual(overlay.components, ['../manifests/components/upstream-webhook']);
  assert.equal(overlay.configMapGenerator[0]!.behavior, 'merge');
  assert.ok(overlay.configMapGenerator[0]!.literals.includes('TAILOR_RECOMMENDER_STRATEGY=vpa'));
  assert.deepEqual(overlay.replicas, [{ name: 'tailor-updater', count: 0 }]);
});

test('comment lines and trailing comments are dropped; a page without a section is refused by name', () => {
  assert.deepEqual(commandLines('# first\nkubectl apply -k x   # why\n\n  kubectl get vpa -A\n'), ['kubectl apply -k x', 'kubectl get vpa -A']);
  assert.throws(() => readMigrationDoc(page.replace('## The switch back', '## Going back')), /no section "## The switch back"/);
  assert.throws(() => readMigrationDoc(page.replace('Check it:', 'Look:')), /no "Check it:"/);
});
