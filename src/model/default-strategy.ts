/**
 * The one default strategy of every command that recommends: `tailor run --recommender-strategy`,
 * `tailor recommend --strategy`, `tailor audit --strategy` (and so the demo, which runs `tailor
 * run` and then `tailor audit`). `tailor replay` replays every strategy unless told otherwise.
 * `tailor-low-churn` (decision 0276), declared here once (decision 0285), as a plain string so
 * that declaring the options loads no strategy code (decision 0244).
 */
export const DEFAULT_STRATEGY = 'tailor-low-churn';

/**
 * The names of the built-in strategies, in display order, as plain strings for the same reason:
 * `--recommender-strategy` declares them; builtin-strategies.ts builds the strategies (a test holds
 * the two to the same list).
 */
export const BUILTIN_STRATEGY_NAMES = ['vpa', 'tailor', DEFAULT_STRATEGY] as const;
