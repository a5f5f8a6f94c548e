import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scheduleFor, scheduleOfCron } from '../../src/controller/schedule.ts';

test('intervals that divide a minute, an hour or a day become one cron step, and tick every so many ms', () => {
  assert.deepEqual(scheduleFor(1000), { cron: '* * * * * *', intervalMs: 1000, everyMs: 1000 });
  assert.deepEqual(scheduleFor(10_000), { cron: '*/10 * * * * *', intervalMs: 10_000, everyMs: 10_000 });
  assert.deepEqual(scheduleFor(60_000), { cron: '0 * * * * *', intervalMs: 60_000, everyMs: 60_000 });
  assert.deepEqual(scheduleFor(300_000), { cron: '0 */5 * * * *', intervalMs: 300_000, everyMs: 300_000 });
  assert.deepEqual(scheduleFor(3_600_000), { cron: '0 0 * * * *', intervalMs: 3_600_000, everyMs: 3_600_000 });
  assert.deepEqual(scheduleFor(7_200_000), { cron: '0 0 */2 * * *', intervalMs: 7_200_000, everyMs: 7_200_000 });
  assert.deepEqual(scheduleFor(86_400_000), { cron: '0 0 0 * * *', intervalMs: 86_400_000, everyMs: 86_400_000 });
});

test('intervals that do not divide their unit are refused with a hint', () => {
  for (const ms of [7_000, 420_000, 90_000, 1500, 5 * 3_600_000, 2 * 86_400_000]) {
    const s = scheduleFor(ms);
    assert.ok('error' in s, `${ms} ms`);
    assert.match(s.error, /--schedule/);
  }
});

test('a cron expression counts its longest gap as its interval', () => {
  assert.equal(scheduleOfCron('*/15 * * * * *').intervalMs, 15_000);
  assert.equal(scheduleOfCron('*/15 * * * * *').everyMs, undefined, 'a --schedule keeps its cron ticks');
  assert.equal(scheduleOfCron('0 */5 * * * *').intervalMs, 300_000);
  // Twice a day at 9:00 and 17:00 (time zone of the machine): gaps of 8 h and 16 h.
  assert.equal(scheduleOfCron('0 9,17 * * *', 5).intervalMs, 16 * 3_600_000);
});
