/**
 * Resolves with the first SIGINT or SIGTERM, then removes its handlers, so a long-running command
 * (`tailor run`, `tailor sim`) can stop cleanly instead of being killed mid-write.
 */
export function untilShutdownSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
