import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DemoStopped, STOP_SIGNALS, stopSignal } from '../../src/demo/stop-signal.ts';

const listeners = () => STOP_SIGNALS.map((s) => process.listenerCount(s));

test('the first signal stops (the abort reason says which); later ones only call onRepeat; cancel removes the handlers', async () => {
  const before = listeners();
  const repeats: string[] = [];
  const stop = stopSignal(undefined, (s) => repeats.push(s));
  assert.deepEqual(
    listeners(),
    before.map((n) => n + 1),
  );
  assert.equal(stop.signal.aborted, false);
  process.emit('SIGINT', 'SIGINT');
  assert.equal(await stop.stopped, 'SIGINT');
  assert.ok(stop.signal.reason instanceof DemoStopped);
  assert.equal(stop.signal.reason.why, 'SIGINT');
  process.emit('SIGINT', 'SIGINT');
  process.emit('SIGHUP', 'SIGHUP');
  assert.deepEqual(repeats, ['SIGINT', 'SIGHUP'], 'a second Ctrl-C does not stop anything twice');
  stop.cancel();
  assert.deepEqual(listeners(), before);
});

test('--duration stops after the running time, counted from startTimer', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const stop = stopSignal(90_000);
  t.after(() => stop.cancel());
  t.mock.timers.tick(200_000);
  assert.equal(stop.signal.aborted, false, 'start-up is not counted');
  stop.startTimer();
  t.mock.timers.tick(89_999);
  assert.equal(stop.signal.aborted, false);
  t.mock.timers.tick(1);
  assert.equal(await stop.stopped, '--duration 90s');
});
