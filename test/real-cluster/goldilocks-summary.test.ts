import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shownAmount, summaryContainers, summaryMismatches, type StatusRecommendation } from './goldilocks-summary.ts';

test('memory as Goldilocks shows it: rounded up to a whole MiB from 1 MiB on, to a KiB below; cpu as is', () => {
  assert.equal(shownAmount('memory', '100000000'), 96 * 2 ** 20);
  assert.equal(shownAmount('memory', '262144k'), 250 * 2 ** 20, '262144000 bytes are exactly 250Mi');
  assert.equal(shownAmount('memory', '250Mi'), 250 * 2 ** 20);
  assert.equal(shownAmount('memory', '1000'), 1024);
  assert.equal(shownAmount('cpu', '25m'), 25);
  assert.equal(shownAmount('cpu', '1'), 1000);
});

// A summary as `goldilocks summary -n ns` prints it (fields it adds beside the bounds left in).
const STATUS: StatusRecommendation[] = [
  {
    containerName: 'busy',
    lowerBound: { cpu: '150m', memory: '100000000' },
    target: { cpu: '199m', memory: '262144k' },
    upperBound: { cpu: '2', memory: '1Gi' },
    uncappedTarget: { cpu: '199m', memory: '262144k' },
  },
  {
    containerName: 'idle',
    lowerBound: { cpu: '12m', memory: '131072k' },
    target: { cpu: '12m', memory: '131072k' },
    upperBound: { cpu: '1', memory: '1Gi' },
    uncappedTarget: { cpu: '12m', memory: '131072k' },
  },
];
function summary(busyTargetCpu: string) {
  const container = (name: string, b: Record<string, Record<string, string>>) => ({
    containerName: name,
    ...b,
    limits: {},
    requests: { cpu: '10m' },
    BasePath: '',
    ContainerCost: 0,
  });
  return {
    Namespaces: {
      ns: {
        namespace: 'ns',
        workloads: {
          web: {
            controllerName: 'web',
            controllerType: 'Deployment',
            containers: {
              busy: container('busy', {
                lowerBound: { cpu: '150m', memory: '96Mi' },
                target: { cpu: busyTargetCpu, memory: '250Mi' },
                upperBound: { cpu: '2', memory: '1Gi' },
                uncappedTarget: { cpu: '199m', memory: '250Mi' },
              }),
              idle: container('idle', {
                lowerBound: { cpu: '12m', memory: '125Mi' },
                target: { cpu: '12m', memory: '125Mi' },
                upperBound: { cpu: '1', memory: '1Gi' },
                uncappedTarget: { cpu: '12m', memory: '125Mi' },
              }),
            },
          },
        },
      },
    },
  };
}

test("a summary that shows the status' bounds agrees with it", () => {
  assert.deepEqual(summaryMismatches(STATUS, summaryContainers(summary('199m'), 'ns', 'web')), []);
});

test('a differing value, a missing bound, a missing or extra container are named', () => {
  assert.deepEqual(summaryMismatches(STATUS, summaryContainers(summary('200m'), 'ns', 'web')), ['busy target cpu: 200m, status 199m']);
  const shown = summaryContainers(summary('199m'), 'ns', 'web');
  delete shown.get('idle')!.uncappedTarget;
  assert.deepEqual(summaryMismatches(STATUS, shown), ['idle uncappedTarget cpu: missing (status 12m)', 'idle uncappedTarget memory: missing (status 131072k)']);
  assert.deepEqual(summaryMismatches(STATUS.slice(1), summaryContainers(summary('199m'), 'ns', 'web')), ['busy: in the summary, not in the status']);
  assert.deepEqual(summaryMismatches(STATUS, summaryContainers({ Namespaces: {} }, 'ns', 'web')), ['busy: not in the summary', 'idle: not in the summary']);
});
