import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { AUTOSCALER_NAMES, autoscalerMode } from './autoscaler.ts';

test('autoscalerMode: Tailor unless TAILOR_CONFORMANCE_AUTOSCALER says upstream; anything else refused', () => {
  assert.equal(autoscalerMode(undefined), 'tailor');
  assert.equal(autoscalerMode(''), 'tailor');
  assert.equal(autoscalerMode('tailor'), 'tailor');
  assert.equal(autoscalerMode('upstream'), 'upstream');
  assert.throws(() => autoscalerMode('Upstream'), /TAILOR_CONFORMANCE_AUTOSCALER=Upstream is not one of tailor, upstream/);
  assert.throws(() => autoscalerMode('vpa'), /not one of tailor, upstream/);
});

test('AUTOSCALER_NAMES: the tables name upstream with the version the lane builds (versions.sh)', () => {
  const version = /^UPSTREAM_VPA_VERSION=(\S+)$/m.exec(readFileSync('test/real-cluster/versions.sh', 'utf8'))?.[1];
  assert.ok(version, 'versions.sh sets UPSTREAM_VPA_VERSION');
  assert.equal(AUTOSCALER_NAMES.upstream, `upstream VPA ${version}`);
  assert.equal(AUTOSCALER_NAMES.tailor, 'Tailor');
});
