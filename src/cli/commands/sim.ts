/**
 * `tailor sim`: runs kube-sim (API server + simulated cluster) until SIGINT/SIGTERM. Writes a
 * kubeconfig for kubectl and client-node (without --kubeconfig-out: in the temp directory, removed
 * at exit), prints where everything is, and serves the usage metrics
 * at /metrics/cadvisor and /metrics/kube-state on the same port. See docs/kube-sim-cluster.md.
 */
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { createLogger, type LogLevel } from '../../observability/logger.ts';
import { parseServerVersion, SERVER_VERSIONS, type ServerVersion } from 'kube-sim/server-version';
import type { Scenario } from 'kube-sim/scenario';
import { untilShutdownSignal } from '../shutdown-signal.ts';
import { logLevelOption } from '../common-options.ts';
import { UsageError } from '../exit-codes.ts';

interface SimOptions {
  port: string;
  kubeconfigOut?: string;
  scenario?: string;
  serverVersion?: string;
  speed?: string;
  logLevel: LogLevel;
}

function parsePort(text: string): number {
  const port = Number(text);
  if (text.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port ${JSON.stringify(text)} is not a port number (0-65535; 0 = any free port)`);
  return port;
}

function parseSpeed(text: string): number {
  const speed = Number(text);
  if (text.trim() === '' || !Number.isFinite(speed) || speed <= 0)
    throw new UsageError(`--speed ${JSON.stringify(text)} must be a positive number (1 = real time, 60 = a simulated minute per second)`);
  return speed;
}

/** Starts the sim and resolves when a signal stopped it. */
async function runSim(options: SimOptions): Promise<void> {
  // The values first: a bad one is a usage error before anything is loaded or started.
  const port = parsePort(options.port);
  const givenSpeed = options.speed === undefined ? undefined : parseSpeed(options.speed);
  // The simulator is loaded by this command only, not at every start of the CLI.
  const [{ readScenarioFile, startKubeSim }, { startBanner }, { VPA_CRD_MANIFESTS }] = await Promise.all([
    import('kube-sim'),
    import('kube-sim/start-banner'),
    import('../../api/vpa-crd-manifests.ts'),
  ]);
  const logger = createLogger({ level: options.logLevel });
  let scenario: Scenario | undefined;
  let baseDir: string | undefined;
  if (options.scenario) {
    try {
      ({ scenario, baseDir } = await readScenarioFile(options.scenario));
    } catch (err) {
      throw new Error(`scenario ${options.scenario}: ${(err as Error).message}`, { cause: err });
    }
  }
  const version: ServerVersion | undefined = options.serverVersion ? parseServerVersion(options.serverVersion) : undefined;
  const speed = givenSpeed ?? scenario?.speed ?? 1;
  const sim = await startKubeSim({
    crdManifests: VPA_CRD_MANIFESTS,
    port,
    ...(version ? { version } : {}),
    ...(scenario ? { scenario } : {}),
    ...(baseDir ? { baseDir } : {}),
    speed,
    logger,
  });
  // A kubeconfig of our own choosing in the temp directory is ours to remove at exit; one the user
  // asked for with --kubeconfig-out stays.
  const ownKubeconfig = options.kubeconfigOut === undefined;
  const kubeconfig = options.kubeconfigOut ?? join(tmpdir(), `tailor-sim-${sim.server.port}.kubeconfig`);
  try {
    await sim.server.writeKubeconfig(kubeconfig);
  } catch (err) {
    await sim.close();
    throw new Error(`cannot write the kubeconfig ${kubeconfig}`, { cause: err });
  }
  // Listening before saying so: a Ctrl-C right after the line must reach this handler, not kill us.
  const stopped = untilShutdownSignal();
  process.stdout.write(startBanner(sim, kubeconfig, speed));
  await stopped;
  try {
    await sim.close();
  } finally {
    if (ownKubeconfig) await rm(kubeconfig, { force: true });
  }
  process.stdout.write(ownKubeconfig ? `kube-sim stopped; removed ${kubeconfig}\n` : 'kube-sim stopped\n');
}

export function registerSimCommand(program: Command): void {
  program
    .command('sim')
    .description('Run kube-sim, a simulated Kubernetes cluster for kubectl, client-node and Tailor, until stopped.')
    .option('--port <port>', 'port on 127.0.0.1 (0 = any free port)', '0')
    .option('--kubeconfig-out <file>', 'where to write the kubeconfig (default: a file in the temp directory)')
    .option('--scenario <file>', 'scenario YAML: nodes, workloads with usage patterns, faults (default: 3 nodes, no workloads)')
    .addOption(
      new Option('--server-version <version>', "Kubernetes version whose resize behaviour to follow (default 1.35, or the scenario's)").choices([
        ...SERVER_VERSIONS,
      ]),
    )
    .option('--speed <factor>', "simulated time per real time (default 1, or the scenario's)")
    .addOption(logLevelOption('warn'))
    .action(async (options: SimOptions) => {
      await runSim(options);
    });
}
