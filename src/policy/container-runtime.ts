/**
 * What runs in a container, for runtime-aware memory resizing, detected from its image, command,
 * args and literal env (or the `tailor.dev/runtime` override, runtime-annotation.ts). Pure.
 * - start-sized: the runtime sizes its memory when it starts, so an in-place change of the limit
 *   gives it nothing and lowering it can kill it: a JVM (the heap is fixed at start by -Xmx or
 *   -XX:MaxRAMPercentage of the limit at start, default 25%), PostgreSQL (shared_buffers), MySQL
 *   (innodb_buffer_pool_size), Redis (maxmemory), any `start-sized` override;
 * - follows-limit: Go, Node.js, Python, Envoy, nginx (and unknown runtimes, treated as before).
 * The JVM's floor: a memory limit never goes below heap + max(25% of the heap, 256 MiB) of
 * non-heap overhead (metaspace, code cache, threads, direct buffers). Worked number: -Xmx2g ->
 * 2 GiB + 512 MiB = 2.5 GiB; no flag and a 1 GiB limit -> 256 MiB heap + 256 MiB = 512 MiB.
 * Go with GOMEMLIMIT: never below GOMEMLIMIT + 10%.
 */
import type { V1Container } from '@kubernetes/client-node';
import type { RuntimeKind } from './runtime-annotation.ts';

export type MemoryBehaviour = 'start-sized' | 'follows-limit' | 'unknown';

/** A container's runtime and what it means for memory. */
export interface ContainerRuntime {
  /** Undefined: not recognised (memory is handled as before). */
  runtime?: RuntimeKind;
  behaviour: MemoryBehaviour;
  /** Where it was seen, for people: `image eclipse-temurin:21`, `env JAVA_TOOL_OPTIONS`, `annotation tailor.dev/runtime`. */
  evidence: string;
  /** JVM: the heap set by -Xmx (bytes). */
  heapBytes?: number;
  /** JVM: -XX:MaxRAMPercentage (default 25 when no -Xmx). */
  maxRamPercentage?: number;
  /** Go: GOMEMLIMIT (bytes). */
  goMemLimitBytes?: number;
}

const MiB = 2 ** 20;
const START_SIZED: readonly RuntimeKind[] = ['jvm', 'postgresql', 'mysql', 'redis', 'start-sized'];
/** The JVM's default MaxRAMPercentage. */
export const JVM_DEFAULT_MAX_RAM_PERCENTAGE = 25;
/** Non-heap overhead of a JVM: max(this share of the heap, JVM_MIN_OVERHEAD_BYTES). */
export const JVM_OVERHEAD_RATIO = 0.25;
export const JVM_MIN_OVERHEAD_BYTES = 256 * MiB;
/** Headroom above GOMEMLIMIT. */
export const GO_MEMLIMIT_HEADROOM = 0.1;

/** The env variables whose options a JVM reads, in the order it applies them (later wins). */
const JVM_ENV_BEFORE = ['JAVA_TOOL_OPTIONS', 'JDK_JAVA_OPTIONS', 'JAVA_OPTS'];
const JVM_ENV_AFTER = ['_JAVA_OPTIONS'];

// One row per line, read as a table:
// prettier-ignore
const IMAGES: readonly [RuntimeKind, RegExp][] = [
  ['jvm', /(^|[/_-])(openjdk|eclipse-temurin|temurin|amazoncorretto|corretto|zulu|azul|semeru|ibm-semeru-runtimes|liberica|jre|jdk|java|tomcat|jetty|wildfly|keycloak|elasticsearch|opensearch|kafka|zookeeper|cassandra|solr|jenkins|flink|spark)$/],
  ['postgresql', /(^|[/_-])(postgres|postgresql|postgis|timescaledb|pgvector)$/],
  ['mysql', /(^|[/_-])(mysql|mariadb|percona|percona-server)$/],
  ['redis', /(^|[/_-])(redis|redis-stack-server|valkey|keydb)$/],
  ['node', /(^|[/_-])(node|nodejs)$/],
  ['python', /(^|[/_-])(python|pypy)$/],
  ['envoy', /(^|[/_-])(envoy|envoyproxy)$/],
  ['nginx', /(^|[/_-])(nginx|nginx-unprivileged|openresty)$/],
  ['go', /(^|[/_-])(golang)$/],
];

const COMMANDS: Record<string, RuntimeKind> = {
  java: 'jvm',
  postgres: 'postgresql',
  mysqld: 'mysql',
  mariadbd: 'mysql',
  'redis-server': 'redis',
  'valkey-server': 'redis',
  node: 'node',
  python: 'python',
  python3: 'python',
  gunicorn: 'python',
  uvicorn: 'python',
  envoy: 'envoy',
  nginx: 'nginx',
};

/** The repository part of an image reference, lowercase, without registry port, tag or digest: `eclipse-temurin`. */
function repository(image: string): string {
  const noDigest = image.split('@')[0]!;
  const slash = noDigest.lastIndexOf('/');
  const colon = noDigest.lastIndexOf(':');
  return (colon > slash ? noDigest.slice(0, colon) : noDigest).toLowerCase();
}

/** A JVM size (`-Xmx2g`, `512m`, `1048576`) in bytes; undefined if unreadable. */
export function parseJvmSize(text: string): number | undefined {
  const m = /^(\d+)([kKmMgGtT]?)$/.exec(text);
  if (!m) return undefined;
  const shift = { '': 0, k: 10, m: 20, g: 30, t: 40 }[m[2]!.toLowerCase() as '' | 'k' | 'm' | 'g' | 't'];
  return Number(m[1]) * 2 ** shift;
}

/** GOMEMLIMIT (`1GiB`, `512MiB`, `1000000`, `off`) in bytes; undefined if off or unreadable. */
export function parseGoMemLimit(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(B|KiB|MiB|GiB|TiB)?$/.exec(text.trim());
  if (!m) return undefined;
  const shift = { B: 0, KiB: 10, MiB: 20, GiB: 30, TiB: 40 }[(m[2] ?? 'B') as 'B'];
  return Math.floor(Number(m[1]) * 2 ** shift);
}

interface JvmFlags {
  heapBytes?: number;
  maxRamPercentage?: number;
  seen: boolean;
}

function readJvmFlags(words: readonly string[], into: JvmFlags): void {
  for (const w of words) {
    const xmx = /^-Xmx(\S+)$/.exec(w) ?? /^-XX:MaxHeapSize=(\S+)$/.exec(w);
    if (xmx) {
      const bytes = parseJvmSize(xmx[1]!);
      if (bytes !== undefined) Object.assign(into, { heapBytes: bytes, seen: true });
      continue;
    }
    const pct = /^-XX:MaxRAMPercentage=(\d+(?:\.\d+)?)$/.exec(w);
    if (pct) Object.assign(into, { maxRamPercentage: Number(pct[1]), seen: true });
  }
}

const words = (s: string | undefined) => (s ?? '').split(/\s+/).filter((w) => w !== '');

/** Detects the runtime of a container; `override` (from the annotation) wins. */
export function detectRuntime(container: V1Container, override?: RuntimeKind): ContainerRuntime {
  const env = new Map((container.env ?? []).filter((e) => e.value !== undefined).map((e) => [e.name, e.value!]));
  const argv = [...(container.command ?? []), ...(container.args ?? [])].flatMap((a) => words(a));
  const jvm: JvmFlags = { seen: false };
  const jvmEnv: string[] = [];
  for (const name of JVM_ENV_BEFORE)
    if (env.has(name)) {
      readJvmFlags(words(env.get(name)), jvm);
      if (jvm.seen) jvmEnv.push(name);
    }
  readJvmFlags(argv, jvm);
  for (const name of JVM_ENV_AFTER)
    if (env.has(name)) {
      readJvmFlags(words(env.get(name)), jvm);
      jvmEnv.push(name);
    }
  const goMemLimit = env.has('GOMEMLIMIT') ? parseGoMemLimit(env.get('GOMEMLIMIT')!) : undefined;

  const finish = (runtime: RuntimeKind | undefined, evidence: string): ContainerRuntime => {
    const out: ContainerRuntime = { behaviour: runtime === undefined ? 'unknown' : START_SIZED.includes(runtime) ? 'start-sized' : 'follows-limit', evidence };
    if (runtime) out.runtime = runtime;
    if (runtime === 'jvm') {
      if (jvm.heapBytes !== undefined) out.heapBytes = jvm.heapBytes;
      else out.maxRamPercentage = jvm.maxRamPercentage ?? JVM_DEFAULT_MAX_RAM_PERCENTAGE;
    }
    if (runtime === 'go' && goMemLimit !== undefined) out.goMemLimitBytes = goMemLimit;
    return out;
  };

  if (override) return finish(override, 'annotation tailor.dev/runtime');
  if (jvm.seen) return finish('jvm', jvmEnv.length > 0 ? `env ${jvmEnv.join(', ')}` : 'JVM options in command/args');
  const executable = argv.map((w) => w.split('/').pop()!).find((w) => w in COMMANDS);
  if (executable) return finish(COMMANDS[executable], `command ${executable}`);
  if (env.has('GOMEMLIMIT')) return finish('go', 'env GOMEMLIMIT');
  const repo = repository(container.image ?? '');
  const hit = IMAGES.find(([, re]) => re.test(repo));
  if (hit) return finish(hit[0], `image ${container.image}`);
  return finish(undefined, 'not recognised');
}

/**
 * The lowest memory limit (bytes) the runtime tolerates, or undefined when it has none.
 * `limitAtStartBytes`: the memory limit the container started with (MaxRAMPercentage applies to it).
 */
export function runtimeMemoryFloor(rt: ContainerRuntime, limitAtStartBytes: number | undefined): number | undefined {
  if (rt.runtime === 'jvm') {
    const heap =
      rt.heapBytes ??
      (limitAtStartBytes === undefined ? undefined : Math.floor((limitAtStartBytes * (rt.maxRamPercentage ?? JVM_DEFAULT_MAX_RAM_PERCENTAGE)) / 100));
    if (heap === undefined) return undefined;
    return heap + Math.max(Math.ceil(heap * JVM_OVERHEAD_RATIO), JVM_MIN_OVERHEAD_BYTES);
  }
  if (rt.runtime === 'go' && rt.goMemLimitBytes !== undefined) return Math.ceil(rt.goMemLimitBytes * (1 + GO_MEMLIMIT_HEADROOM));
  return undefined;
}

/**
 * The lowest memory limit (bytes) a container may start with, or undefined when it has none: what
 * `runtimeMemoryFloor` says, except for a JVM sized by MaxRAMPercentage, whose heap is that share p
 * of the limit it starts with: the smallest limit L with L >= p·L + max(25% of p·L, 256 MiB), i.e.
 * 256 MiB / (1 - p) rounded up to a MiB (default 25%: 342 MiB); none from p = 80% on (no limit leaves room).
 */
export function startMemoryFloor(rt: ContainerRuntime): number | undefined {
  if (rt.runtime !== 'jvm' || rt.heapBytes !== undefined) return runtimeMemoryFloor(rt, undefined);
  const share = (rt.maxRamPercentage ?? JVM_DEFAULT_MAX_RAM_PERCENTAGE) / 100;
  if (share * (1 + JVM_OVERHEAD_RATIO) >= 1) return undefined;
  return Math.ceil(JVM_MIN_OVERHEAD_BYTES / (1 - share) / MiB) * MiB; // whole MiB, for people
}

/** A short description for people: `jvm (-Xmx 2Gi, from env JAVA_TOOL_OPTIONS)`. */
export function describeRuntime(rt: ContainerRuntime): string {
  if (!rt.runtime) return 'unknown runtime';
  const heap =
    rt.heapBytes !== undefined
      ? `-Xmx ${Math.round(rt.heapBytes / MiB)}Mi, `
      : rt.maxRamPercentage !== undefined
        ? `MaxRAMPercentage ${rt.maxRamPercentage}, `
        : '';
  const go = rt.goMemLimitBytes !== undefined ? `GOMEMLIMIT ${Math.round(rt.goMemLimitBytes / MiB)}Mi, ` : '';
  return `${rt.runtime} (${heap}${go}from ${rt.evidence})`;
}

/** What a runtime's memory floor is made of, for messages: a JVM's heap + overhead, else GOMEMLIMIT + 10%. */
export function floorBasis(rt: ContainerRuntime): string {
  return rt.runtime === 'jvm' ? 'heap + overhead' : 'GOMEMLIMIT + 10%';
}
