/**
 * Starts a whole kube-sim: the API server (on 127.0.0.1) and the simulated cluster, populated from
 * a scenario (nodes, namespaces, objects, workloads, faults). Used by `tailor sim` and by tests.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { KubeSimApiServer, type FaultRule, type KubeObject } from './apiserver/index.ts';
import { SimClock } from './sim-clock.ts';
import { SimCluster } from './sim-cluster.ts';
import { defaultScenario, parseScenario, type Scenario } from './scenario.ts';
import { nodeObject, scenarioNamespaces, workloadObject } from './scenario-objects.ts';
import { DEFAULT_SERVER_VERSION, type ServerVersion } from './server-version.ts';
import { parseUsageTrace, type UsageTrace } from './usage/usage-trace.ts';
import { parseUsagePattern } from './usage/usage-pattern.ts';
import type { Logger } from './logger.ts';
import { silentLogger } from './logger.ts';

export interface KubeSimOptions {
  port?: number;
  /** Overrides the scenario's server version (default 1.35). */
  version?: ServerVersion;
  scenario?: Scenario;
  /** Directory trace paths in the scenario are relative to (default: the working directory). */
  baseDir?: string;
  /** Simulated start instant (default: now). */
  startAt?: number;
  /** Run on a real timer at this speed; leave out to drive time with `cluster.tick()` (tests). */
  speed?: number;
  /** Real ms between timer ticks (default 250). */
  tickMs?: number;
  /** HTTPS (default true; kubectl and client-node trust the CA in the written kubeconfig). */
  tls?: boolean;
  logger?: Logger;
  reactToChanges?: boolean;
  /** CRD YAML files, or directories of them, installed before the scenario's objects (default none). */
  crdManifests?: readonly string[];
}

export interface KubeSim {
  server: KubeSimApiServer;
  cluster: SimCluster;
  version: ServerVersion;
  url: string;
  close(): Promise<void>;
}

/** Loads every trace file the scenario's usage patterns name. */
async function loadTraces(scenario: Scenario, baseDir: string): Promise<Map<string, UsageTrace>> {
  const traces = new Map<string, UsageTrace>();
  for (const w of scenario.workloads) {
    for (const c of w.containers) {
      for (const resource of ['cpu', 'memory'] as const) {
        const text = c.usage?.[resource];
        if (!text) continue;
        const pattern = parseUsagePattern(text, resource);
        if (pattern.kind !== 'trace' || traces.has(pattern.path)) continue;
        const file = resolve(baseDir, pattern.path);
        try {
          traces.set(pattern.path, parseUsageTrace(await readFile(file, 'utf8')));
        } catch (err) {
          throw new Error(`workload ${w.name}, container ${c.name}: cannot load trace ${file}: ${(err as Error).message}`, { cause: err });
        }
      }
    }
  }
  return traces;
}

/** Starts the API server and the cluster; call `close()` to stop both. */
export async function startKubeSim(options: KubeSimOptions = {}): Promise<KubeSim> {
  const scenario = options.scenario ?? defaultScenario();
  const version = options.version ?? scenario.serverVersion ?? DEFAULT_SERVER_VERSION;
  const logger = options.logger ?? silentLogger();
  const clock = new SimClock(options.startAt ?? Date.now());
  const traces = await loadTraces(scenario, options.baseDir ?? process.cwd());
  const server = new KubeSimApiServer({
    port: options.port ?? 0,
    serverVersion: version,
    now: () => clock.now(),
    logger: logger.child({ component: 'apiserver' }),
    tls: options.tls ?? true,
    crdManifests: options.crdManifests ?? [],
  });
  const url = await server.start();
  const baseDir = options.baseDir ?? process.cwd();
  const loadTrace = (path: string) => parseUsageTrace(readFileSync(resolve(baseDir, path), 'utf8'));
  const cluster = new SimCluster({
    server,
    clock,
    version,
    seed: scenario.seed,
    actuationDelayMs: scenario.actuationDelayMs,
    traces,
    loadTrace,
    logger,
    reactToChanges: options.reactToChanges ?? true,
  });
  try {
    cluster.install();
    scenario.nodes.forEach((n, i) => server.store.create('nodes', nodeObject(n, i, version) as unknown as KubeObject));
    for (const ns of scenarioNamespaces(scenario)) {
      if (!server.store.get('namespaces', '', ns)) await server.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    }
    for (const obj of scenario.objects) await server.create(obj as unknown as KubeObject);
    for (const w of scenario.workloads) await server.create(workloadObject(w) as unknown as KubeObject);
    for (const f of scenario.faults) server.addFault(f as FaultRule);
    await cluster.tick(0);
    await cluster.settle();
    if (options.speed !== undefined) cluster.start(options.speed, options.tickMs ?? 250);
  } catch (err) {
    await cluster.close();
    await server.close();
    throw err;
  }
  return {
    server,
    cluster,
    version,
    url,
    async close() {
      await cluster.close();
      await server.close();
    },
  };
}

/** Reads and validates a scenario file; trace paths resolve against its directory. */
export async function readScenarioFile(path: string): Promise<{ scenario: Scenario; baseDir: string }> {
  const text = await readFile(path, 'utf8');
  return { scenario: parseScenario(text), baseDir: dirname(resolve(path)) };
}
