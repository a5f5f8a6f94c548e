/**
 * Disruption windows: when disruptive actions (evictions, resizes that restart a container) may
 * happen for a workload. A window is a list of 5-field cron expressions (node-cron) read in a time
 * zone; it is open during every minute one of them matches. Example: `* 2-4 * * 1-5` in
 * Europe/Berlin is open 02:00-04:59 Berlin time on weekdays; `* 22-23 * * 6; * 0-5 * * 0` is
 * Saturday 22:00 to Sunday 05:59. Pure in the sense that matters: the answer depends only on the
 * window and `now` (matchers and the next opening are memoised).
 */
import cron from 'node-cron';

/** A workload's disruption windows. */
export interface DisruptionWindows {
  expressions: readonly string[];
  /** An IANA time zone, e.g. `Europe/Berlin`; `UTC` by default. */
  timezone: string;
}

/** Whether the window is open at a time, and when it opens next if not. */
export interface WindowState {
  open: boolean;
  /** ms since the epoch; absent when open, or when no opening lies within {@link NEXT_OPENING_HORIZON_MS}. */
  nextOpen?: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** How far ahead the next opening is looked for (for messages only). */
export const NEXT_OPENING_HORIZON_MS = 8 * 24 * HOUR;

type Matcher = (date: Date) => boolean;
const matchers = new Map<string, Matcher>();

/** node-cron's matcher for one expression in a zone (its task is destroyed at once: it never runs). */
function matcherFor(expression: string, timezone: string): Matcher {
  const key = `${timezone}\n${expression}`;
  let m = matchers.get(key);
  if (!m) {
    const task = cron.createTask(expression, () => undefined, { timezone });
    void task.destroy();
    m = (date) => task.match(date);
    if (matchers.size > 1000) matchers.clear();
    matchers.set(key, m);
  }
  return m;
}

/** True if the time zone is known to this runtime. */
export function knownTimeZone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/** Why a window expression is refused, or undefined when it is fine. */
export function windowExpressionProblem(expression: string): string | undefined {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5)
    return `${JSON.stringify(expression)} has ${fields.length} field(s); write 5 (minute hour day-of-month month day-of-week), e.g. "* 2-4 * * 1-5"`;
  const check = cron.validateDetailed(expression.trim());
  if (!check.valid) return `${JSON.stringify(expression)}: ${check.errors.map((e) => e.message).join('; ') || 'not a valid cron expression'}`;
  return undefined;
}

/** True if one of the expressions matches the minute `now` lies in. */
export function windowOpenAt(windows: DisruptionWindows, now: number): boolean {
  const minute = new Date(Math.floor(now / MINUTE) * MINUTE);
  return windows.expressions.some((e) => matcherFor(e.trim(), windows.timezone)(minute));
}

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

/** The local minute (0-59) of a time in a zone. */
function localMinute(time: number, timezone: string): number {
  let f = partsFormatters.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: timezone, minute: 'numeric' });
    partsFormatters.set(timezone, f);
  }
  return Number(f.formatToParts(new Date(time)).find((p) => p.type === 'minute')?.value ?? 0);
}

/**
 * The first minute after `now` one expression matches, hour by hour: in each hour only the
 * first candidate minute of the expression's minute field is tried (the other fields are the same
 * for the whole local hour), so a week costs a few hundred matches, not ten thousand.
 */
function nextMatch(expression: string, timezone: string, now: number, horizon: number): number | undefined {
  const match = matcherFor(expression, timezone);
  const minutes = [...new Set(cron.parse(expression).minute)].sort((a, b) => a - b);
  const start = Math.floor(now / MINUTE) * MINUTE + MINUTE;
  for (let t = start; t < now + horizon; t += HOUR) {
    const local = localMinute(t, timezone);
    // the candidates in [t, t + 1h): for each local hour this span touches, the first minute in the set
    const inThisHour = minutes.find((m) => m >= local);
    const inNextHour = minutes.find((m) => m < local);
    const candidates = [
      inThisHour === undefined ? undefined : t + (inThisHour - local) * MINUTE,
      inNextHour === undefined ? undefined : t + (60 - local + inNextHour) * MINUTE,
    ];
    for (const c of candidates) if (c !== undefined && match(new Date(c))) return c;
  }
  return undefined;
}

const nextOpenings = new Map<string, { from: number; at: number | undefined }>();

/** Whether the window is open at `now`, and if not, when it opens next (within 8 days). */
export function windowState(windows: DisruptionWindows, now: number): WindowState {
  if (windowOpenAt(windows, now)) return { open: true };
  const key = `${windows.timezone}\n${windows.expressions.join(';')}`;
  const cached = nextOpenings.get(key);
  // a cached answer holds for any time between when it was computed and the opening it found
  if (cached && cached.from <= now && (cached.at === undefined ? now - cached.from < HOUR : now < cached.at))
    return cached.at === undefined ? { open: false } : { open: false, nextOpen: cached.at };
  const found = windows.expressions.map((e) => nextMatch(e.trim(), windows.timezone, now, NEXT_OPENING_HORIZON_MS)).filter((t): t is number => t !== undefined);
  const at = found.length > 0 ? Math.min(...found) : undefined;
  if (nextOpenings.size > 1000) nextOpenings.clear();
  nextOpenings.set(key, { from: now, at });
  return at === undefined ? { open: false } : { open: false, nextOpen: at };
}

/** `* 2-4 * * 1-5 (Europe/Berlin)`: the window as people read it. */
export function describeWindows(windows: DisruptionWindows): string {
  return `${windows.expressions.join('; ')} (${windows.timezone})`;
}
