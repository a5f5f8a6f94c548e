/**
 * The override annotation for runtime-aware memory, on the VPA, self-contained so it can join the
 * per-workload annotation registry: `tailor.dev/runtime` names the runtime of the VPA's containers
 * when detection from image, command, args and env guesses wrong (or cannot see it, e.g. a JVM
 * started by a shell script). Value: one runtime for every container (`jvm`), or per container,
 * comma-separated (`app=jvm, sidecar=go`; `*=` sets the default for the others). Runtimes:
 * jvm, postgresql, mysql, redis, start-sized (any other runtime that sizes its memory at start,
 * e.g. a pooled C/C++ allocator), go, node, python, envoy, nginx, follows-limit (any other runtime
 * that follows the limit).
 */

export const RUNTIME_ANNOTATION = 'tailor.dev/runtime';

/** Runtimes detection knows. */
export const RUNTIME_KINDS = ['jvm', 'postgresql', 'mysql', 'redis', 'start-sized', 'go', 'node', 'python', 'envoy', 'nginx', 'follows-limit'] as const;
export type RuntimeKind = (typeof RUNTIME_KINDS)[number];

/** The parsed annotation: runtime by container name (`*`: every other container). */
export type RuntimeOverrides = ReadonlyMap<string, RuntimeKind>;

/** A parse result: the overrides, or what is wrong (naming the annotation). */
export type RuntimeAnnotationResult = { ok: true; overrides: RuntimeOverrides } | { ok: false; message: string };

const CONTAINER_NAME = /^(\*|[a-z0-9]([-a-z0-9]*[a-z0-9])?)$/;

function isRuntime(value: string): value is RuntimeKind {
  return (RUNTIME_KINDS as readonly string[]).includes(value);
}

/** Parses the value of `tailor.dev/runtime`. Example: `app=jvm, sidecar=go` -> {app: jvm, sidecar: go}. */
export function parseRuntimeAnnotation(value: string): RuntimeAnnotationResult {
  const fail = (why: string): RuntimeAnnotationResult => ({
    ok: false,
    message: `${RUNTIME_ANNOTATION}: ${why} (got "${value}"; expected a runtime such as "jvm" or "app=jvm,sidecar=go"; runtimes: ${RUNTIME_KINDS.join(', ')})`,
  });
  const parts = value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length === 0) return fail('empty');
  const overrides = new Map<string, RuntimeKind>();
  for (const part of parts) {
    const eq = part.indexOf('=');
    const container = eq < 0 ? '*' : part.slice(0, eq).trim();
    const runtime = (eq < 0 ? part : part.slice(eq + 1)).trim().toLowerCase();
    if (eq < 0 && parts.length > 1) return fail(`"${part}" needs a container name (container=runtime) when several are given`);
    if (!CONTAINER_NAME.test(container)) return fail(`"${container}" is not a container name`);
    if (!isRuntime(runtime)) return fail(`unknown runtime "${runtime}"`);
    if (overrides.has(container)) return fail(`container "${container}" is named twice`);
    overrides.set(container, runtime);
  }
  return { ok: true, overrides };
}

/** The overrides on a VPA's annotations; an absent annotation gives none. */
export function runtimeOverridesOf(annotations: Readonly<Record<string, string>> | undefined): RuntimeAnnotationResult {
  const value = annotations?.[RUNTIME_ANNOTATION];
  return value === undefined ? { ok: true, overrides: new Map() } : parseRuntimeAnnotation(value);
}
