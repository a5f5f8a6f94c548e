/**
 * Deliberately broken Tailors for the chaos lane (issue 31 item 4: "a deliberately broken Tailor
 * must make the checker fail — run it that way once per rule"): each variant names the rule it
 * should break, and how: text edits to a copy of src/ (built into an image of its own) and/or
 * settings. `npm run test:chaos -- --seed N --minutes M --variant <name>` runs one; the run is
 * caught when the checker reports that rule. npm test holds each edit's `find` to the source as it
 * is (exactly one match), so a refactor cannot leave a variant silently doing nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Rule } from './invariants.ts';

/** One text edit of a file of the repository. */
export interface Edit {
  readonly file: string;
  readonly find: string;
  readonly replace: string;
}

/** A broken Tailor. */
export interface Variant {
  readonly rule: Rule;
  /** What is taken out. */
  readonly broken: string;
  readonly edits: readonly Edit[];
  /** tailor-config settings (KEY=value) added to the chaos overlay. */
  readonly settings: readonly string[];
  /** RBAC rules added to the updater's ClusterRole (what the broken code needs to do its harm). */
  readonly updaterRules?: readonly UpdaterRule[];
}

/** One rule of a ClusterRole. */
export interface UpdaterRule {
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
}

export const VARIANTS: Readonly<Record<string, Variant>> = {
  bounds: {
    rule: 'bounds',
    broken: 'minAllowed and maxAllowed ignored by the recommender (capping) and the updater (planning)',
    edits: [
      { file: 'src/policy/cap-recommendation.ts', find: 'const min = policy.minAllowed[r];', replace: 'const min = undefined as number | undefined;' },
      { file: 'src/policy/cap-recommendation.ts', find: 'const max = policy.maxAllowed[r];', replace: 'const max = undefined as number | undefined;' },
      {
        file: 'src/policy/container-plan.ts',
        find: 'const minAllowed = policy.minAllowed[r];',
        replace: 'const minAllowed = undefined as number | undefined;',
      },
      {
        file: 'src/policy/container-plan.ts',
        find: 'const maxAllowed = policy.maxAllowed[r];',
        replace: 'const maxAllowed = undefined as number | undefined;',
      },
    ],
    settings: [],
  },
  mode: {
    rule: 'mode',
    broken: "the VPA's updateMode ignored by the updater: every pod planned as InPlaceOrRecreate",
    edits: [
      {
        file: 'src/updater/decide-pod.ts',
        find: "const mode: UpdateMode = vpa.spec.updatePolicy?.updateMode ?? 'Recreate';",
        replace: "const mode: UpdateMode = 'InPlaceOrRecreate';",
      },
    ],
    settings: [],
  },
  'eviction-api': {
    rule: 'eviction-api',
    broken: 'pods deleted in place of evicted (DELETE on the pod, past any PodDisruptionBudget), with RBAC that lets the updater delete pods',
    edits: [
      {
        file: 'src/kube/kube-apis.ts',
        find: "createNamespacedPodEviction: { method: 'POST', path: `${NS}/pods/{name}/eviction`, result: 'V1Eviction', body: 'V1Eviction' },",
        replace: "createNamespacedPodEviction: { method: 'DELETE', path: `${NS}/pods/{name}`, result: 'V1Pod' },",
      },
    ],
    settings: [],
    updaterRules: [{ apiGroups: [''], resources: ['pods'], verbs: ['delete'] }],
  },
  governed: {
    rule: 'governed',
    broken: "a pod no VPA targets planned with the first VPA of its namespace (the bystander with web-1's)",
    edits: [
      {
        file: 'src/updater/workload-groups.ts',
        find: 'const group = ref ? byKey.get(workloadKey({ ...ref, namespace: ns(ref.namespace) })) : undefined;',
        replace:
          'const group = (ref ? byKey.get(workloadKey({ ...ref, namespace: ns(ref.namespace) })) : undefined) ?? groups.find((g) => ns(g.group.vpa.metadata.namespace) === ns(pod.metadata?.namespace));',
      },
    ],
    settings: [],
  },
  qos: {
    rule: 'qos',
    broken: "the QoS class no longer kept: the planner's guard (qos-guard.ts) and the updater's check before a resize (resize-guard.ts) taken out",
    edits: [
      {
        file: 'src/policy/pod-resources.ts',
        find: 'podReasons.push(...keepQosClass(expected, slots, others, limitRange));',
        replace: 'void keepQosClass, void expected;',
      },
      { file: 'src/updater/resize-guard.ts', find: 'if (next !== held) out.push(', replace: 'if (next !== held && false) out.push(' },
    ],
    settings: [],
  },
  'one-leader': {
    rule: 'one-leader',
    broken: 'leader election off: both updater replicas act',
    edits: [],
    settings: ['TAILOR_LEADER_ELECT=false'],
  },
};

/** How often `find` occurs in `text`. */
export function occurrences(text: string, find: string): number {
  return text.split(find).length - 1;
}

/** Applies `variant`'s edits to the checkout at `root`; throws naming each edit whose text is not there exactly once. */
export function applyVariant(root: string, variant: Variant): void {
  const problems: string[] = [];
  for (const e of variant.edits) {
    const path = join(root, e.file);
    const text = readFileSync(path, 'utf8');
    const n = occurrences(text, e.find);
    if (n !== 1) problems.push(`${e.file}: '${e.find}' found ${n} times (want 1)`);
    else writeFileSync(path, text.replace(e.find, e.replace));
  }
  if (problems.length > 0) throw new Error(`the variant for ${variant.rule} no longer applies: ${problems.join('; ')}`);
}
