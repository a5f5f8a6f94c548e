import { test } from 'node:test';
import assert from 'node:assert/strict';
import { windowOpenAt, windowState, type DisruptionWindows } from '../../src/policy/disruption-window.ts';

const at = (iso: string) => Date.parse(iso);
const berlin = (expressions: string[]): DisruptionWindows => ({ expressions, timezone: 'Europe/Berlin' });

test("open during every minute an expression matches, in the window's time zone", () => {
  const w = berlin(['* 2-4 * * 1-5']);
  // Monday 2026-06-01: Berlin is UTC+2
  assert.equal(windowOpenAt(w, at('2026-06-01T00:00:00Z')), true); // 02:00 Berlin
  assert.equal(windowOpenAt(w, at('2026-06-01T02:59:59Z')), true); // 04:59:59
  assert.equal(windowOpenAt(w, at('2026-06-01T03:00:00Z')), false); // 05:00
  assert.equal(windowOpenAt(w, at('2026-05-31T23:59:30Z')), false); // 01:59:30
  // in winter Berlin is UTC+1: 02:00 Berlin = 01:00 UTC
  assert.equal(windowOpenAt(w, at('2026-01-05T00:30:00Z')), false);
  assert.equal(windowOpenAt(w, at('2026-01-05T01:30:00Z')), true);
  // Saturday: closed
  assert.equal(windowOpenAt(w, at('2026-06-06T01:00:00Z')), false);
  assert.equal(windowOpenAt({ expressions: ['* 2-4 * * 1-5'], timezone: 'UTC' }, at('2026-06-01T02:30:00Z')), true);
});

test('several expressions: Saturday 22:00 to Sunday 05:59', () => {
  const w: DisruptionWindows = { expressions: ['* 22-23 * * 6', '* 0-5 * * 0'], timezone: 'UTC' };
  assert.equal(windowOpenAt(w, at('2026-06-06T23:30:00Z')), true);
  assert.equal(windowOpenAt(w, at('2026-06-07T05:59:00Z')), true);
  assert.equal(windowOpenAt(w, at('2026-06-07T06:00:00Z')), false);
});

/** The first minute after `now` the window is open, minute by minute (slow, for checking). */
function bruteForce(w: DisruptionWindows, now: number): number | undefined {
  for (let t = Math.floor(now / 60_000) * 60_000 + 60_000; t < now + 8 * 86_400_000; t += 60_000) if (windowOpenAt(w, t)) return t;
  return undefined;
}

test('the next opening equals a minute-by-minute search (zones with half hours, DST, several expressions)', () => {
  const cases: [DisruptionWindows, string][] = [
    [berlin(['* 2-4 * * 1-5']), '2026-06-01T12:00:00Z'],
    [berlin(['* 2-4 * * 1-5']), '2026-06-05T03:10:00Z'], // Friday after the window: Monday
    [berlin(['30 2 * * *']), '2026-03-28T12:00:00Z'], // 02:30 does not exist on 29 March (DST)
    [{ expressions: ['15,45 9 * * *'], timezone: 'Asia/Kolkata' }, '2026-06-01T12:00:00Z'],
    [{ expressions: ['* 22-23 * * 6', '* 0-5 * * 0'], timezone: 'America/New_York' }, '2026-06-03T12:00:00Z'],
    [{ expressions: ['0 0 29 2 *'], timezone: 'UTC' }, '2026-06-01T00:00:00Z'], // no 29 February within 8 days
  ];
  for (const [w, iso] of cases) {
    const now = at(iso);
    const state = windowState(w, now);
    assert.equal(state.open, false, `${w.expressions.join(';')} at ${iso}`);
    assert.equal(state.nextOpen, bruteForce(w, now), `${w.expressions.join(';')} ${w.timezone} at ${iso}`);
  }
});

test('open now: no next opening is computed', () => {
  assert.deepEqual(windowState(berlin(['* * * * *']), at('2026-06-01T12:00:00Z')), { open: true });
});
