/**
 * The conformance lane's pure parts: upstream's five e2e suites and the components upstream deploys
 * for each (its hack/deploy-for-e2e.sh), the ginkgo arguments that select a suite's specs, and the
 * JUnit report read back into one row per spec with the reason of every non-pass.
 */

/** Tailor's three Deployments, as manifests/base names them. */
export const TAILOR_DEPLOYMENTS = { recommender: 'tailor-recommender', updater: 'tailor-updater', admission: 'tailor-admission' } as const;
export type TailorComponent = keyof typeof TAILOR_DEPLOYMENTS;

/**
 * Upstream's suites and what it deploys for each: one component for the component suites, updater and
 * admission controller for actuation (the specs write the recommendations themselves), all three for
 * full-vpa.
 */
export const SUITES: Readonly<Record<string, readonly TailorComponent[]>> = {
  recommender: ['recommender'],
  updater: ['updater'],
  'admission-controller': ['admission'],
  actuation: ['updater', 'admission'],
  'full-vpa': ['recommender', 'updater', 'admission'],
};

/** What to run of a suite: upstream's default lanes skip `[Feature:OffByDefault]`; CI also `[Slow]`. */
export interface Selection {
  readonly offByDefault: boolean;
  readonly slow: boolean;
  /** An extra ginkgo focus (a regular expression on the spec's full name), e.g. one spec's words. */
  readonly focus?: string;
  /** Specs skipped by their words (escaped here), e.g. the not-applicable ones. */
  readonly skipSpecs?: readonly string[];
}

/** A spec that checks an upstream implementation detail, not a behaviour: the lines it reads, in words. */
export interface NotApplicable {
  readonly suite: string;
  /** The spec's words (its `It` text). */
  readonly spec: string;
  readonly reason: string;
}

/**
 * The specs Tailor does not run, each with the detail of upstream's it checks. Skipped for Tailor
 * only (upstream's own run keeps them); their rows say `not applicable` and why.
 */
export const NOT_APPLICABLE: readonly NotApplicable[] = [
  {
    suite: 'admission-controller',
    spec: 'reloads the webhook leaf and CA certificate',
    reason:
      "not applicable: reads upstream's Secrets vpa-e2e-certs and vpa-tls-certs and pods named vpa-admission-controller* in kube-system and waits for their exact log lines (admission_controller.go lines 1145-1182); Tailor makes and rotates its own certificate (Secret tailor-webhook-ca, docs/admission.md), tested in npm test and the real-cluster lane",
  },
];

/** A string matched literally inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The rows of not-applicable specs (skipped by their words) marked so, with the reason. */
export function markNotApplicable(rows: readonly SpecRow[], list: readonly NotApplicable[]): SpecRow[] {
  return rows.map((r) => {
    const na = list.find((n) => n.suite === r.suite && r.spec.includes(n.spec));
    return na && r.result === 'skipped' ? { ...r, result: 'not applicable', reason: na.reason } : r;
  });
}

/** The suites named on the command line, all five when none; throws on an unknown name. */
export function selectSuites(names: readonly string[]): string[] {
  const unknown = names.filter((n) => !(n in SUITES));
  if (unknown.length > 0) throw new Error(`unknown suite(s) ${unknown.join(', ')} (known: ${Object.keys(SUITES).join(', ')})`);
  return names.length === 0 ? Object.keys(SUITES) : [...names];
}

/** The ginkgo flags that select a suite's specs, as upstream's hack/run-e2e-tests.sh does. */
export function ginkgoSelection(suite: string, selection: Selection): string[] {
  const skip = [
    ...(selection.offByDefault ? [] : ['\\[Feature:OffByDefault\\]']),
    ...(selection.slow ? [] : ['\\[Slow\\]']),
    ...(selection.skipSpecs ?? []).map(escapeRegExp),
  ];
  const focus = `\\[VPA\\] \\[${suite}\\]${selection.focus ? `.*(?:${selection.focus})` : ''}`;
  return [`--ginkgo.focus=${focus}`, ...(skip.length > 0 ? [`--ginkgo.skip=${skip.join('|')}`] : [])];
}

export type SpecResult = 'passed' | 'failed' | 'skipped' | 'pending' | 'interrupted' | 'timedout' | 'panicked' | 'aborted' | 'not applicable';

/** One spec of a JUnit report. */
export interface SpecRow {
  readonly suite: string;
  /** The spec's full text without ginkgo's `[It]` prefix and the `[sig-autoscaling] [VPA] [suite] [v1]` head. */
  readonly spec: string;
  readonly result: SpecResult;
  readonly seconds: number;
  /** For a non-pass: the failure's message on one line, else ''. */
  readonly reason: string;
}

const ENTITIES: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>', apos: "'" };

/** XML character references and the five named entities decoded. */
export function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|quot|amp|lt|gt|apos);/g, (_, e: string) => {
    if (e.startsWith('#x')) return String.fromCodePoint(Number.parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(Number.parseInt(e.slice(1), 10));
    return ENTITIES[e]!;
  });
}

function attribute(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? decodeXml(m[1]!) : undefined;
}

/** The spec's name as a reader wants it: `[It] [sig-autoscaling] [VPA] [updater] [v1] Updater evicts …` → `Updater evicts …`. */
export function specName(testcase: string): string {
  return testcase.replace(/^\[It\]\s*/, '').replace(/^\[sig-autoscaling\] \[VPA\] \[[^\]]+\] \[v1\]\s*/, '');
}

/** A failure message on one line (gomega's spread over several), at most `max` characters. */
export function oneLine(message: string, max = 300): string {
  const line = message
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .join(' ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * The specs of a ginkgo JUnit report (ginkgo v2's `--ginkgo.junit-report`): every `<testcase>` whose
 * name carries `[VPA]` (suite set-up and tear-down nodes are left out unless they failed, as a spec
 * then could not run: they come back as a row named after the node). With `only`, the specs of other
 * suites (the report lists all 674 of the binary, skipped by the focus) are left out too.
 */
export function readJunit(suite: string, xml: string, only?: string): SpecRow[] {
  const rows: SpecRow[] = [];
  for (const m of xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const head = m[1]!;
    const body = m[3] ?? '';
    const name = attribute(head, 'name') ?? '';
    const status = (attribute(head, 'status') ?? 'passed') as SpecResult;
    const isSpec = name.includes('[VPA]');
    if (!isSpec && status === 'passed') continue;
    if (!isSpec && status === 'skipped') continue;
    if (isSpec && only !== undefined && !name.includes(`[VPA] [${only}]`)) continue;
    const failure = /<(failure|error)\b([^>]*)>([\s\S]*?)<\/\1>|<(failure|error)\b([^>]*)\/>/.exec(body);
    const skipped = /<skipped\b([^>]*)\/?>/.exec(body);
    let reason = '';
    if (failure) reason = oneLine(attribute(failure[2] ?? failure[5] ?? '', 'message') || decodeXml(failure[3] ?? ''));
    else if (status !== 'passed' && skipped) reason = oneLine(attribute(skipped[1]!, 'message') ?? '');
    rows.push({ suite, spec: specName(name), result: status, seconds: Number(attribute(head, 'time') ?? '0'), reason });
  }
  return rows;
}

/** Counts of a set of rows by result. */
export function tally(rows: readonly SpecRow[]): { passed: number; failed: number; skipped: number; notApplicable: number } {
  const passed = rows.filter((r) => r.result === 'passed').length;
  const skipped = rows.filter((r) => r.result === 'skipped' || r.result === 'pending').length;
  const notApplicable = rows.filter((r) => r.result === 'not applicable').length;
  return { passed, failed: rows.length - passed - skipped - notApplicable, skipped, notApplicable };
}

/**
 * The rows of several runs as one table, oldest run first: a spec keeps its place from the first run
 * that listed it and takes its result from the last run that ran it (a later run skipped by its
 * focus does not hide an earlier result). Example: run 1 failed "A", passed "B"; run 2 (focus "A")
 * passed "A", skipped "B" → "A" passed, "B" passed, in run 1's order.
 */
export function mergeRuns(runs: readonly (readonly SpecRow[])[]): SpecRow[] {
  const merged = new Map<string, SpecRow>();
  for (const rows of runs) {
    for (const row of rows) {
      const key = `${row.suite}\u0000${row.spec}`;
      const ran = row.result !== 'skipped' && row.result !== 'pending';
      if (!merged.has(key) || ran) merged.set(key, row);
    }
  }
  return [...merged.values()];
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
}

/**
 * A Markdown table: suite, spec, result, seconds, reason. With `autoscaler`, the result column's
 * header names the autoscaler the suite ran against (`result (upstream VPA v1.8.1)`).
 */
export function markdownTable(rows: readonly SpecRow[], autoscaler?: string): string {
  const result = autoscaler ? `result (${cell(autoscaler)})` : 'result';
  const lines = [`| suite | spec | ${result} | s | reason |`, '|---|---|---|---:|---|'];
  for (const r of rows) lines.push(`| ${r.suite} | ${cell(r.spec)} | ${r.result} | ${r.seconds.toFixed(0)} | ${cell(r.reason)} |`);
  return lines.join('\n');
}
