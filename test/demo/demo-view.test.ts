import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podRows, podState, showCpu, showMemory } from '../../src/demo/demo-snapshot.ts';
import { elapsed, formatActivity, renderScreen, renderSummary, renderTable, runningClock, shortPodName, ttyFrame } from '../../src/demo/demo-view.ts';
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
  assert.equal(
    podState(pod({ name: 'a', app: 'a', phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] })),
    'Pending (Unschedulable)',
  );
  assert.equal(podState(pod({ name: 'a', app: 'a' })), 'Running');
});

test('rows: pods of workloads with a VPA, sorted, with requests and the recommendation of the controlled resources', () => {
  const s = snap(T0, {
    pods: [
      pod({ name: 'web-b', app: 'web', node: 'small-1', cpu: '300m', memory: '256Mi' }),
      pod({ name: 'web-a', app: 'web', node: 'small-2', cpu: '600m', memory: '256Mi', restarts: 1 }),
      pod({ name: 'db-a', app: 'db' }),
    ],
    vpas: [vpa('web', { cpu: ['296m', '246m', '430m'] })],
  });
  const rows = podRows(s);
  assert.deepEqual(
    rows.map((r) => [r.workload, r.pod, r.node, r.state, r.restarts, r.cpu, r.cpuRecommendation, r.memory, r.memoryRecommendation]),
    [
      ['web', 'web-a', 'small-2', 'Running', 1, '600m', '296m [246m, 430m]', '256Mi', '-'],
      ['web', 'web-b', 'small-1', 'Running', 0, '300m', '296m [246m, 430m]', '256Mi', '-'],
    ],
  );
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
    'summary: 0 recommendations, 1 in-place resize, 0 restarting resizes, 0 infeasible resizes, 1 eviction (1 after an infeasible resize), 0 pods admitted with the recommendation, 0 pods admitted with a start-up cpu boost, 0 OOM kills, 0 nodes added, 0 refused or failed actions',
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

test('the summary: singular and plural, and the evictions with the fallbacks among them', () => {
  const at = (kind: Activity['kind'], n: number): Activity[] => Array.from({ length: n }, () => ({ at: T0, kind, subject: 'x', text: '' }));
  const summary = renderSummary([
    ...at('recommendation', 1),
    ...at('infeasible', 2),
    ...at('fallback', 2),
    ...at('eviction', 1),
    ...at('admitted', 1),
    ...at('oom', 1),
    ...at('scale-up', 1),
  ]);
  assert.match(
    summary,
    /^summary: 1 recommendation, 0 in-place resizes, 0 restarting resizes, 2 infeasible resizes, 3 evictions \(2 after an infeasible resize\), 1 pod admitted with the recommendation, 0 pods admitted with a start-up cpu boost, 1 OOM kill, 1 node added, 0 refused or failed actions$/,
  );
  assert.doesNotMatch(renderSummary(at('eviction', 1)), /after an infeasible resize/, 'no fallback: nothing to say about them');
  assert.doesNotMatch(renderSummary([]), /fallback/);
});

test('the clock counts running time (start-up not), and never runs past --duration', () => {
  assert.equal(runningClock(12_400), 'running 12s; Ctrl-C to stop');
  assert.equal(runningClock(45_000, 90_000), 'running 45s of 90s; Ctrl-C to stop');
  assert.equal(runningClock(100_000, 90_000), 'running 90s of 90s, finishing', 'the issue saw "running 100s of 90s"');
  assert.equal(runningClock(-300, 90_000), 'running 0s of 90s; Ctrl-C to stop');
});

test('the pod table fits the terminal: 200 columns whole, 100 and 80 without the lower-priority columns; no width (not a terminal) whole', () => {
  const s = snap(T0, {
    pods: [
      pod({
        name: 'batch-qh46w2hqht-c5z2k',
        app: 'batch',
        node: 'small-1',
        cpu: '1200m',
        memory: '512Mi',
        conditions: [{ type: 'PodResizePending', status: 'True', reason: 'Infeasible' }],
      }),
      pod({
        name: 'batch-qh46w2hqht-2246z',
        app: 'batch',
        phase: 'Pending',
        cpu: '2190m',
        memory: '512Mi',
        conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
      }),
      pod({ name: 'cache-7d4f8b9c6d-h9dkh', app: 'cache', node: 'small-2', cpu: '100m', memory: '1Gi', restarts: 1 }),
    ],
    vpas: [vpa('batch', { cpu: ['2190m', '2010m', '2400m'] }), vpa('cache', { memory: ['363Mi', '300Mi', '1.5Gi'] })],
  });
  const rows = podRows(s);
  const widest = (text: string) => Math.max(...text.split('\n').map((l) => l.length));
  const whole = renderTable(rows);
  assert.ok(widest(whole) > 100, `the whole table is ${widest(whole)} wide`);
  assert.equal(renderTable(rows, 200), whole);
  for (const width of [100, 80]) {
    const fitted = renderTable(rows, width);
    assert.ok(widest(fitted) <= width, `${width}:\n${fitted}`);
    assert.match(fitted, /│ batch +│ 2\.19 +│ 2\.19 \[2\.01, 2\.4\] +│ 512Mi +│ - +│/, `${width}: requests and recommendations stay:\n${fitted}`);
  }
  const at120 = renderTable(rows, 120);
  assert.ok(widest(at120) <= 120, at120);
  assert.match(at120, /│ workload │ pod +│ state +│ cpu req │/, `at 120 the state and the pod stay, restarts and node go first:\n${at120}`);
  assert.match(at120, /│ batch +│ 2246z │ Pending \(Unschedulable\) │ 2\.19 +│/);
  const screen = renderScreen({ header: ['tailor demo'], rows, log: [], startedAt: T0, logLines: 5, width: 80 });
  assert.ok(widest(screen) <= 80, screen);
});
