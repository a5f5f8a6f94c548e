/** Moved to src/local-prometheus (the demo uses it too); re-exported for the tests. */
export * from '../../src/local-prometheus/free-port.ts';
