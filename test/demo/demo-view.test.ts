import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podRows, podState, showCpu, showMemory } from '../../src/demo/demo-snapshot.ts';
import { elapsed, formatActivity, renderScreen, renderSummary, renderTable, shortPodName, ttyFrame } from '../../src/demo/demo-view.ts';
import type { Activity } from '../../src/demo/activity.ts';
import { pod, snap, vpa } from './demo-fixtures.ts';

const T0 = 1_000_000;

test('quantities as people read them', () => {
  assert.deepEqual(['600m', '2281m', '2', '2.5', '0.3'].map(showCpu), ['600m', '2281m', '2', '2.5', '300m']);
  assert.deepEqual(['1Gi', '512Mi', '380000000', '2Gi'].map(showMemory), ['1Gi', '512Mi', '362Mi', '2Gi']);
  assert.equal(showCpu(undefined), '-');
});

test('pod state: a pending resize, a resize in progress, an unschedulable pod, the phase', () => {
  assert.equal(podState(pod({ name: 'a', app: 'a', conditions: [{ type: 'PodResizePending', status: 'True', reason: 'Infeasible' }] })), 'resize Infeasible');
  assert.equal(podState(pod({ name: 'a', app: 'a', conditions: [{ type: 'PodResizeInProgress', status: 'True' }] })), 'resizing');
  assert.equal(podState(pod({ name: 'a', app: 'a', phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] })), 'Pending (Unschedulable)');
  assert.equal(podState(pod({ name: 'a', app: 'a' })), 'Running');
});

test('rows: pods of workloads with a VPA, sorted, with requests and the recommendation of the controlled resources', () => {
  const s = snap(T0, {
    pods: [pod({ name: 'web-b', app: 'web', node: 'small-1', cpu: '300m', memory: '256Mi' }), pod({ name: 'web-a', app: 'web', node: 'small-2', cpu: '600m', memory: '256Mi', restarts: 1 }), pod({ name: 'db-a', app: 'db' })],
    vpas: [vpa('web', { cpu: ['296m', '246m', '430m'] })],
  });
  const rows = podRows(s);
  assert.deepEqual(rows.map((r) => [r.workload, r.pod, r.node, r.state, r.restarts, r.cpu, r.cpuRecommendation, r.memory, r.memoryRecommendation]), [
    ['web', 'web-a', 'small-2', 'Running', 1, '600m', '296m [246m, 430m]', '256Mi', '-'],
    ['web', 'web-b', 'small-1', 'Running', 0, '300m', '296m [246m, 430m]', '256Mi', '-'],
  ]);
  const table = renderTable(rows);
  assert.match(table, /workload.*pod.*node.*state.*restarts.*cpu req.*cpu target \[lower, upper\].*mem req.*mem target \[lower, upper\]/);
  assert.match(table, /│ web +│ a +│ small-2 │ Running.*600m.*296m \[246m, 430m\].*256Mi/);
  assert.equal(table.split('\n').length, 1 + 1 + 2 + 1, 'top, head, one line per row, bottom');
  assert.equal(shortPodName('web-5w5fg9q249-7j6kr', 'web'), '7j6kr');
  assert.equal(shortPodName('db-0', 'web'), 'db-0');
});

test('log lines, the summary and the screen', () => {
  const log: Activity[] = [
    { at: T0 + 9_400, kind: 'in-place', subject: 'web', text: 'web-a: ResizedInPlace: OutsideBounds' },
    { at: T0 + 19_000, kind: 'fallback', subject: 'batch', text: 'batch-a: Evicted: FallbackInfeasible' },
  ];
  assert.equal(elapsed(T0 + 9_400, T0), '+9s');
  assert.equal(formatActivity(log[0]!, T0), '   +9s  in-place        web       web-a: ResizedInPlace: OutsideBounds');
  assert.equal(
    renderSummary(log),
    'summary: 0 recommendations, 1 in-place resizes, 0 restarting resizes, 0 infeasible resizes, 1 fallback evictions, 0 evictions, 0 pods admitted with the recommendation, 0 pods admitted with a start-up cpu boost, 0 OOM kills, 0 nodes added, 0 refused or failed actions',
  );
  const screen = renderScreen({ header: ['tailor demo', 'kubeconfig  /tmp/k'], rows: [], log, startedAt: T0, logLines: 1 });
  assert.match(screen, /^tailor demo\nkubeconfig {2}\/tmp\/k\n/);
  assert.ok(screen.includes('+19s  fallback'), 'the newest line is shown');
  assert.ok(!screen.includes('in-place'), 'only the last logLines lines');
  assert.match(renderScreen({ header: [], rows: [], log: [], startedAt: T0, logLines: 5 }), /waiting for the first recommendations/);
});

test('a terminal frame: home, lines cut to the width and cleared to their end, the rest cleared', () => {
  assert.equal(ttyFrame('abcdef\nxy\n', 4), '\x1b[Habcd\x1b[K\nxy\x1b[K\n\x1b[J');
  assert.equal(ttyFrame('abcdef', undefined), '\x1b[Habcdef\x1b[K\n\x1b[J', 'no width known: nothing cut');
});
