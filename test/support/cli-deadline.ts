/**
 * How long a test lets a `bin/tailor.mjs` child run. The CLI compiles its TypeScript at start-up
 * (tsx): on 2 loaded cores (load average 30) starting took over 30 s, so 30 s deadlines failed
 * tests whose behaviour was right. Generous, not endless: a hung child still fails.
 */
export const CLI_DEADLINE_MS = 120_000;
