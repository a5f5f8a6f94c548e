// What one updater loop says about invalid VPAs (issue 28 item 10: the log said only
// "invalidVpas":1): each one named with what is wrong, once per cause, not every loop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/observability/logger.ts';
import { UpdaterLoop } from '../../src/updater/updater-loop.ts';
import { updaterOptions } from '../../src/policy/update-thresholds.ts';
import { serverCapabilities } from '../../src/updater/server-capabilities.ts';
import type { UpdaterApi } from '../../src/updater/updater-api.ts';

const MIN = 60_000;

test('an invalid VPA is named with its fields once, again only when it breaks anew; the report lists it', async () => {
  const lines: Array<{ level: number; msg: string; vpa?: string }> = [];
  const logger = createLogger({
    level: 'debug',
    destination: new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as { level: number; msg: string; vpa?: string });
        done();
      },
    }),
  });
  let bad: unknown = {
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    metadata: { namespace: 'shop', name: 'web' },
    spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, updatePolicy: { updateMode: 'Sometimes' } },
  };
  const sources = { pods: () => [], vpas: () => [bad], limitRanges: () => [], hpas: () => [], workloads: () => [] };
  const api = new Proxy({} as UpdaterApi, { get: () => () => assert.fail('no API call expected') });
  const loop = new UpdaterLoop({
    sources,
    api,
    logger,
    options: updaterOptions({}),
    capabilities: serverCapabilities({ major: 1, minor: 35 }),
    budget: { resizes: 10, evictions: 10 },
  });
  for (let m = 0; m < 3; m++) {
    const report = await loop.runOnce(m * MIN);
    assert.deepEqual(report.invalidVpaNames, ['shop/web']);
  }
  const warnings = lines.filter((l) => l.level === 40);
  assert.equal(warnings.length, 1, lines.map((l) => l.msg).join('\n'));
  assert.equal(warnings[0]!.vpa, 'shop/web');
  assert.match(warnings[0]!.msg, /^VPA shop\/web is invalid; the updater leaves its pods alone: .*spec\.updatePolicy\.updateMode/);
  // Fixed, then broken another way: said again at once.
  bad = {
    ...(bad as object),
    spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, updatePolicy: { updateMode: 'Off', minReplicas: 0 } },
  };
  await loop.runOnce(4 * MIN);
  assert.equal(lines.filter((l) => l.level === 40).length, 2, lines.map((l) => l.msg).join('\n'));
});
