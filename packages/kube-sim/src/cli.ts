/**
 * The `kube-sim` command: runs a simulated cluster until SIGINT/SIGTERM, writes a kubeconfig for
 * kubectl and client-node, and prints where everything is. Bad arguments are reported all at once
 * (exit 2); a scenario that does not load exits 1.
 */
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pino, type LevelWithSilent } from 'pino';
import { readScenarioFile, startKubeSim } from './kube-sim.ts';
import { SERVER_VERSIONS, type ServerVersion } from './server-version.ts';
import type { Scenario } from './scenario.ts';
import { startBanner } from './start-banner.ts';

const LEVELS: readonly LevelWithSilent[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

const USAGE = `Usage: kube-sim [options]

Runs a simulated Kubernetes cluster (API server + kubelet) on 127.0.0.1 until stopped.

Options:
  --port <port>              port on 127.0.0.1 (0 = any free port; default 0)
  --kubeconfig-out <file>    where to write the kubeconfig (default: a temp file, removed on stop)
  --scenario <file>          scenario YAML: nodes, workloads with usage patterns, faults
  --crds <path>              CRD YAML file or directory to install first (repeatable)
  --server-version <v>       Kubernetes version to follow: ${SERVER_VERSIONS.join(', ')} (default 1.35)
  --speed <factor>           simulated time per real time (default 1, or the scenario's)
  --log-level <level>        ${LEVELS.join(', ')} (default warn)
  -h, --help                 this text
`;

/** Validated command-line options. */
export interface KubeSimCliOptions {
  port: number;
  kubeconfigOut?: string;
  scenario?: string;
  crds: string[];
  version?: ServerVersion;
  speed?: number;
  logLevel: LevelWithSilent;
}

/** Parses the arguments; every problem is listed, not only the first. */
export function parseKubeSimArgs(argv: string[]): { options: KubeSimCliOptions; help: boolean } | { errors: string[] } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        port: { type: 'string', default: '0' },
        'kubeconfig-out': { type: 'string' },
        scenario: { type: 'string' },
        crds: { type: 'string', multiple: true, default: [] },
        'server-version': { type: 'string' },
        speed: { type: 'string' },
        'log-level': { type: 'string', default: 'warn' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    return { errors: [(err as Error).message] };
  }
  const errors: string[] = [];
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    errors.push(`--port ${JSON.stringify(values.port)} is not a port number (0-65535; 0 = any free port)`);
  const version = values['server-version'];
  if (version !== undefined && !SERVER_VERSIONS.includes(version as ServerVersion))
    errors.push(`--server-version ${JSON.stringify(version)} is not one of ${SERVER_VERSIONS.join(', ')}`);
  const speed = values.speed === undefined ? undefined : Number(values.speed);
  if (speed !== undefined && !(Number.isFinite(speed) && speed > 0))
    errors.push(`--speed ${JSON.stringify(values.speed)} must be a positive number (1 = real time, 60 = a simulated minute per second)`);
  const logLevel = values['log-level'] as LevelWithSilent;
  if (!LEVELS.includes(logLevel)) errors.push(`--log-level ${JSON.stringify(logLevel)} is not one of ${LEVELS.join(', ')}`);
  if (errors.length > 0) return { errors };
  const options: KubeSimCliOptions = { port, logLevel, crds: values.crds ?? [] };
  if (values['kubeconfig-out'] !== undefined) options.kubeconfigOut = values['kubeconfig-out'];
  if (values.scenario !== undefined) options.scenario = values.scenario;
  if (version !== undefined) options.version = version as ServerVersion;
  if (speed !== undefined) options.speed = speed;
  return { options, help: values.help === true };
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const onSignal = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

/** Runs the command; resolves to the exit code (0 stopped by a signal, 1 failed, 2 bad usage). */
export async function runKubeSimCli(argv: string[], stopped: Promise<void> = untilSignal()): Promise<number> {
  const parsed = parseKubeSimArgs(argv);
  if ('errors' in parsed) {
    process.stderr.write(`kube-sim: ${parsed.errors.join('\nkube-sim: ')}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const { options } = parsed;
  let scenario: Scenario | undefined;
  let baseDir: string | undefined;
  if (options.scenario) {
    try {
      ({ scenario, baseDir } = await readScenarioFile(options.scenario));
    } catch (err) {
      process.stderr.write(`kube-sim: scenario ${options.scenario}: ${(err as Error).message}\n`);
      return 1;
    }
  }
  const logger = pino({ level: options.logLevel, base: { app: 'kube-sim' }, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination(2));
  const speed = options.speed ?? scenario?.speed ?? 1;
  let sim;
  try {
    sim = await startKubeSim({
      port: options.port,
      speed,
      logger,
      crdManifests: options.crds,
      ...(options.version ? { version: options.version } : {}),
      ...(scenario ? { scenario } : {}),
      ...(baseDir ? { baseDir } : {}),
    });
  } catch (err) {
    process.stderr.write(`kube-sim: cannot start: ${(err as Error).message}\n`);
    return 1;
  }
  const kubeconfig = options.kubeconfigOut ?? join(tmpdir(), `kube-sim-${sim.server.port}.kubeconfig`);
  try {
    await sim.server.writeKubeconfig(kubeconfig);
    process.stdout.write(startBanner(sim, kubeconfig, speed));
    await stopped;
  } finally {
    await sim.close();
    if (options.kubeconfigOut === undefined) await rm(kubeconfig, { force: true });
  }
  process.stdout.write('kube-sim stopped\n');
  return 0;
}
