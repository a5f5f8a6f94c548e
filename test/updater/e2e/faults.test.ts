/**
 * The updater under injected API faults on kube-sim 1.35: resizes answered with 429 (Retry-After)
 * and 500, evictions with 500. Loops back off and try again later; the in-place resize happens
 * exactly once. Without the admission webhook (issue 8) a recreated pod keeps the template's values
 * and would be evicted again in later loops, so for the evicted workload only the first eviction
 * after the failed one is checked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createVpa, deployment, podsOf, startUpdaterFixture, summary } from './updater-fixture.ts';

const MEM = { memory: '256Mi' };
const res = (cpu: string) => ({ requests: { cpu, ...MEM }, limits: { cpu: '2', memory: '512Mi' } });

test('updater e2e 1.35 with faults: throttled and failing writes are backed off and retried in later loops; each change happens once', async (t) => {
  const f = await startUpdaterFixture('1.35', [{ cpu: '8', memory: '16Gi' }]);
  t.after(() => f.close());
  await f.apps.createNamespacedDeployment({ namespace: 'default', body: deployment('web', 1, [{ name: 'app', image: 'nginx:1.27', resources: res('500m') }]) });
  await f.apps.createNamespacedDeployment({
    namespace: 'default',
    body: deployment('batch', 2, [{ name: 'app', image: 'nginx:1.27', resources: res('500m') }]),
  });
  await f.tick(2000);
  await createVpa(f, 'web', 'InPlaceOrRecreate', [{ containerName: 'app', target: { cpu: '800m', ...MEM }, lowerBound: { cpu: '700m', ...MEM } }]);
  await createVpa(f, 'batch', 'Recreate', [{ containerName: 'app', target: { cpu: '800m', ...MEM }, lowerBound: { cpu: '700m', ...MEM } }]);
  const batchBefore = (await podsOf(f, 'batch')).map((p) => p.metadata!.uid!);
  const removers = [
    f.sim.server.addFault({ verbs: ['patch'], resources: ['pods'], subresources: ['resize'], error: 429, retryAfterSeconds: 10, times: 1 }),
    f.sim.server.addFault({ verbs: ['patch'], resources: ['pods'], subresources: ['resize'], error: 500, times: 1 }),
    f.sim.server.addFault({ verbs: ['create'], resources: ['pods'], subresources: ['eviction'], error: 500, times: 1 }),
  ];
  t.after(() => removers.forEach((r) => r()));
  const outcomes: string[] = [];
  for (let i = 0; i < 8; i++) {
    const report = await f.loop();
    outcomes.push(...report.results.map((r) => `${r.decision.podName.split('-')[0]} ${r.outcome}`));
    await f.tick(15_000);
  }
  assert.deepEqual(
    outcomes.filter((o) => o.startsWith('web ') && o.endsWith('applied')),
    ['web applied'],
    outcomes.join(', '),
  );
  assert.ok(outcomes.includes('web throttled'), outcomes.join(', '));
  const batch = outcomes.filter((o) => o.startsWith('batch '));
  assert.equal(batch[0], 'batch throttled', 'the first eviction got the 500');
  assert.ok(batch.includes('batch applied'), 'a later loop evicted');
  const [web] = await podsOf(f, 'web');
  assert.equal(web!.status!.containerStatuses![0]!.resources!.requests!.cpu, '800m');
  assert.equal(web!.status!.containerStatuses![0]!.restartCount, 0);
  assert.equal((await podsOf(f, 'batch')).filter((p) => batchBefore.includes(p.metadata!.uid!)).length < 2, true, 'batch pods were replaced through evictions');
  assert.deepEqual(
    summary(await f.loop()).filter((s) => s.startsWith('web')),
    ['web Skip WithinBounds'],
  );
});
