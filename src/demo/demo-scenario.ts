/**
 * The scenario of `tailor demo` (src/demo/demo-scenario.yaml): a kube-sim scenario (`cluster`),
 * the usage history to backfill (`history`), a node to add when a pod fits nowhere (`scaleUp`),
 * Deployments to restart once their VPA recommends (`rolloutRestart`) and one line per workload
 * for the view (`stories`). Parsed strictly; errors name the field's path.
 */
import { readFile } from 'node:fs/promises';
import { parse, stringify } from 'yaml';
import { parseScenario, type NodeSpec, type Scenario } from 'kube-sim/scenario';
import { fail, num, obj, onlyKeys, stringMap, ScenarioError } from 'kube-sim/scenario-fields';
import { parseDuration, parseUsagePattern } from 'kube-sim/usage/usage-pattern';
import { packageFile } from '../api/package-files.ts';

/** Usage patterns of one container (pattern text per resource). */
export type PatternTexts = { cpu?: string; memory?: string };

/** What history to backfill. */
export interface HistorySpec {
  /** Days of history before the demo starts (e.g. 3). */
  days: number;
  /** Time between two samples (ms); the recommender's 60 s step needs at most 30 s. */
  intervalMs: number;
  /** workload -> container -> patterns that replace the live ones in the history. */
  usage: Record<string, Record<string, PatternTexts>>;
}

export interface DemoScenario {
  cluster: Scenario;
  history: HistorySpec;
  scaleUp?: NodeSpec;
  /** Deployments restarted once their VPA has a recommendation (their new pods meet the webhook). */
  rolloutRestart: string[];
  stories: Record<string, string>;
}

/** The bundled scenario file. */
export const DEMO_SCENARIO_FILE = packageFile('src/demo/demo-scenario.yaml');

function parseHistory(raw: unknown, cluster: Scenario): HistorySpec {
  const h = obj(raw ?? {}, 'history');
  onlyKeys(h, ['days', 'interval', 'usage'], 'history');
  const days = num(h.days, 'history.days', 3, 0);
  if (days > 30) fail('history.days', 'at most 30');
  let intervalMs = 30_000;
  if (h.interval !== undefined) {
    try {
      intervalMs = parseDuration(String(h.interval));
    } catch (err) {
      fail('history.interval', (err as Error).message);
    }
  }
  if (intervalMs < 1000 || intervalMs > 30_000) fail('history.interval', 'must be between 1s and 30s (two samples per minute step)');
  const usage: HistorySpec['usage'] = {};
  for (const [workload, containers] of Object.entries(obj(h.usage ?? {}, 'history.usage'))) {
    const w = cluster.workloads.find((x) => x.name === workload);
    if (!w) fail(`history.usage.${workload}`, 'no such workload in cluster.workloads');
    usage[workload] = {};
    for (const [container, patterns] of Object.entries(obj(containers, `history.usage.${workload}`))) {
      const path = `history.usage.${workload}.${container}`;
      if (!w.containers.some((c) => c.name === container)) fail(path, `workload ${workload} has no container ${container}`);
      const p = obj(patterns, path);
      onlyKeys(p, ['cpu', 'memory'], path);
      const texts: PatternTexts = {};
      for (const resource of ['cpu', 'memory'] as const) {
        if (p[resource] === undefined) continue;
        const text = String(p[resource]);
        try {
          parseUsagePattern(text, resource);
        } catch (err) {
          fail(`${path}.${resource}`, (err as Error).message);
        }
        texts[resource] = text;
      }
      usage[workload][container] = texts;
    }
  }
  return { days, intervalMs, usage };
}

/** The Deployments to restart once their VPA has a recommendation (names of cluster workloads). */
function parseRolloutRestart(raw: unknown, cluster: Scenario): string[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) fail('rolloutRestart', 'must be a list of Deployment names');
  return (raw as unknown[]).map((name, i) => {
    const w = cluster.workloads.find((x) => x.name === name);
    if (!w || w.kind !== 'Deployment') fail(`rolloutRestart[${i}]`, `${JSON.stringify(name)} is not a Deployment in cluster.workloads`);
    return String(name);
  });
}

/** Parses a demo scenario (YAML text). */
export function parseDemoScenario(text: string): DemoScenario {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    throw new ScenarioError(`demo scenario is not valid YAML: ${(err as Error).message}`, { cause: err });
  }
  const top = obj(doc ?? {}, 'demo');
  onlyKeys(top, ['cluster', 'history', 'scaleUp', 'rolloutRestart', 'stories'], 'demo');
  let cluster: Scenario;
  try {
    cluster = parseScenario(stringify(obj(top.cluster, 'cluster')));
  } catch (err) {
    throw new ScenarioError(`cluster.${(err as Error).message}`, { cause: err });
  }
  const history = parseHistory(top.history, cluster);
  let scaleUp: NodeSpec | undefined;
  if (top.scaleUp !== undefined) {
    const s = obj(top.scaleUp, 'scaleUp');
    onlyKeys(s, ['node'], 'scaleUp');
    try {
      scaleUp = parseScenario(stringify({ nodes: [s.node] })).nodes[0];
    } catch (err) {
      throw new ScenarioError(`scaleUp.${(err as Error).message.replace(/^nodes\[0\]/, 'node')}`, { cause: err });
    }
    if (cluster.nodes.some((n) => n.name === scaleUp!.name)) fail('scaleUp.node.name', `${scaleUp!.name} is already a cluster node`);
  }
  const rolloutRestart = parseRolloutRestart(top.rolloutRestart, cluster);
  const stories = stringMap(top.stories, 'stories');
  return { cluster, history, ...(scaleUp ? { scaleUp } : {}), rolloutRestart, stories };
}

/** Reads the bundled demo scenario. */
export async function loadDemoScenario(): Promise<DemoScenario> {
  return parseDemoScenario(await readFile(DEMO_SCENARIO_FILE, 'utf8'));
}
