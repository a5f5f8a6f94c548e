import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { tailorInProcess } from './cli-in-process.ts';
import { validateFiles } from '../../src/cli/commands/validate.ts';
import { CLI_DEADLINE_MS } from '../support/cli-deadline.ts';

const dir = mkdtempSync(join(tmpdir(), 'tailor-validate-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function tailor(args: string[], input?: string) {
  return spawnSync(process.execPath, ['bin/tailor.mjs', ...args], { encoding: 'utf8', input, timeout: CLI_DEADLINE_MS });
}

const VALID = `apiVersion: autoscaling.k8s.io/v1
kind: VerticalPodAutoscaler
metadata: {name: web}
spec:
  targetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  updatePolicy: {updateMode: InPlaceOrRecreate}
  resourcePolicy:
    containerPolicies:
    - {containerName: '*', minAllowed: {cpu: 50m}, maxAllowed: {cpu: 2, memory: 4Gi}}
`;

const INVALID = `apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
---
apiVersion: autoscaling.k8s.io/v1
kind: VerticalPodAutoscaler
metadata: {name: api}
spec:
  targetRef: {kind: Deployment}
  updatePolicy: {updateMode: Sometimes}
  resourcePolicy:
    containerPolicies:
    - {containerName: app, minAllowed: {cpu: '2'}, maxAllowed: {cpu: 500m}}
`;

test('valid files exit 0 and print no problem', () => {
  const result = tailor(['validate', '-f', file('valid.yaml', VALID)]);
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /1 VerticalPodAutoscaler object\(s\) checked, 0 invalid/);
});

test('each problem is printed as file: kind/name: field: message, and the exit code is 1', () => {
  const path = file('invalid.yaml', INVALID);
  const result = tailor(['validate', '-f', path]);
  assert.equal(result.status, 1, result.stderr);
  assert.deepEqual(result.stdout.trim().split('\n'), [
    `${path}: VerticalPodAutoscaler/api: spec.targetRef.name: is required`,
    `${path}: VerticalPodAutoscaler/api: spec.updatePolicy.updateMode: unsupported value "Sometimes": supported values are "Off", "Initial", "Recreate", "InPlaceOrRecreate", "InPlace", "Auto"`,
    `${path}: VerticalPodAutoscaler/api: spec.resourcePolicy.containerPolicies[0].maxAllowed.cpu: 500m is below minAllowed.cpu 2`,
  ]);
});

test('several files, JSON included: one invalid makes the exit code 1', () => {
  const json = file(
    'vpa.json',
    JSON.stringify({
      apiVersion: 'autoscaling.k8s.io/v1',
      kind: 'VerticalPodAutoscaler',
      metadata: { name: 'j' },
      spec: { targetRef: { kind: 'StatefulSet', name: 'db' }, updatePolicy: { updateMode: 'Initial', minReplicas: -1 } },
    }),
  );
  const result = tailor(['validate', '-f', file('ok.yaml', VALID), json]);
  assert.equal(result.status, 1);
  assert.equal(result.stdout, `${json}: VerticalPodAutoscaler/j: spec.updatePolicy.minReplicas: must be greater than 0, not -1\n`);
  assert.match(result.stderr, /2 VerticalPodAutoscaler object\(s\) checked, 1 invalid/);
});

test('- reads standard input', () => {
  const result = tailor(['validate', '-f', '-'], VALID.replace('updateMode: InPlaceOrRecreate', 'updateMode: Never'));
  assert.equal(result.status, 1);
  assert.match(result.stdout, /^<stdin>: VerticalPodAutoscaler\/web: spec\.updatePolicy\.updateMode: unsupported value "Never"/);
});

test('a missing file or a YAML syntax error exits 1 (2 is a usage error), after checking the other files', () => {
  const missing = join(dir, 'missing.yaml');
  const broken = file('broken.yaml', 'spec: [\n');
  const invalid = file('invalid2.yaml', INVALID);
  const result = tailor(['validate', '-f', missing, broken, invalid]);
  assert.equal(result.status, 1);
  assert.match(result.stderr, new RegExp(`${missing}: cannot read: no such file`));
  assert.match(result.stderr, new RegExp(`${broken}: cannot parse: document 1: `));
  assert.match(result.stdout, /VerticalPodAutoscaler\/api: spec\.targetRef\.name: is required/);
});

test('a directory stands for its YAML and JSON files; -f may be repeated', () => {
  const sub = join(dir, 'manifests');
  mkdirSync(sub);
  writeFileSync(join(sub, 'b.yml'), INVALID);
  writeFileSync(
    join(sub, 'a.json'),
    JSON.stringify({
      kind: 'VerticalPodAutoscaler',
      apiVersion: 'autoscaling.k8s.io/v1',
      metadata: { name: 'a' },
      spec: { targetRef: { kind: 'Deployment', name: 'a' } },
    }),
  );
  writeFileSync(join(sub, 'notes.txt'), 'not a manifest: [');
  const result = tailor(['validate', '-f', sub, '-f', file('extra.yaml', VALID)]);
  assert.equal(result.status, 1, result.stderr);
  assert.equal(result.stdout.trim().split('\n').length, 3);
  assert.ok(result.stdout.split('\n').every((line) => line === '' || line.startsWith(`${join(sub, 'b.yml')}: VerticalPodAutoscaler/api: `)));
  assert.match(result.stderr, /3 VerticalPodAutoscaler object\(s\) checked, 1 invalid/);
});

test("the repository's own examples folder (a kube-sim scenario) holds no invalid VPA: non-VPA documents are skipped with a note", async () => {
  // In-process: a spawn can take over 30 s on a loaded machine.
  const keep = () => {
    const s = { text: '', write: (chunk: string) => ((s.text += chunk), true) };
    return s as unknown as NodeJS.WritableStream & { text: string };
  };
  const out = keep();
  const err = keep();
  const result = { status: await validateFiles(['docs/examples'], out, err), stdout: out.text, stderr: err.text };
  assert.equal(result.status, 0, result.stdout);
  assert.equal(result.stdout, '');
  assert.match(
    result.stderr,
    /docs\/examples\/kube-sim-scenario\.yaml: skipped 1 document\(s\) that are not VerticalPodAutoscalers: \(document 1: no kind, not shaped like a Kubernetes object\)/,
  );
});

test('--format json|yaml and --output FILE: the same findings as one report, in a file', async () => {
  const path = file('invalid-report.yaml', INVALID);
  const out = join(dir, 'report.json');
  const r = await tailorInProcess(['validate', '-f', path, '--format', 'json', '--output', out]);
  assert.equal(r.code, 1);
  const report = JSON.parse(readFileSync(out, 'utf8')) as {
    files: Array<{ file: string; objects: Array<{ ref: string; errors: Array<{ path: string }> }>; skipped: string[] }>;
    checked: number;
    invalid: number;
  };
  assert.deepEqual([report.checked, report.invalid], [1, 1]);
  assert.deepEqual(report.files[0]?.skipped, ['Deployment/api']);
  assert.deepEqual(
    report.files[0]?.objects[0]?.errors.map((e) => e.path),
    ['spec.targetRef.name', 'spec.updatePolicy.updateMode', 'spec.resourcePolicy.containerPolicies[0].maxAllowed.cpu'],
  );
  const yamlOut = join(dir, 'report.yaml');
  assert.equal((await tailorInProcess(['validate', '-f', file('valid-report.yaml', VALID), '--format', 'yaml', '--output', yamlOut])).code, 0);
  assert.match(readFileSync(yamlOut, 'utf8'), /^files:\n {2}- file: .*valid-report\.yaml\n/);
});

test('a VPA whose target runs a start-sized runtime with memory resizePolicy NotRequired gets a warning (exit 0); a bad tailor.dev/runtime is named', async () => {
  const keep = () => {
    const s = { text: '', write: (chunk: string) => ((s.text += chunk), true) };
    return s as unknown as NodeJS.WritableStream & { text: string };
  };
  const path = file(
    'runtime.yaml',
    `apiVersion: apps/v1
kind: Deployment
metadata: {name: db}
spec:
  template:
    spec:
      containers:
      - {name: postgres, image: "postgres:16"}
      - name: exporter
        image: "prometheuscommunity/postgres-exporter:v0.15.0"
---
apiVersion: autoscaling.k8s.io/v1
kind: VerticalPodAutoscaler
metadata: {name: db}
spec:
  targetRef: {apiVersion: apps/v1, kind: Deployment, name: db}
---
apiVersion: autoscaling.k8s.io/v1
kind: VerticalPodAutoscaler
metadata: {name: other, annotations: {tailor.dev/runtime: "app=cobol"}}
spec:
  targetRef: {apiVersion: apps/v1, kind: Deployment, name: gone}
`,
  );
  const out = keep();
  const err = keep();
  // The bad annotation is an error (exit 1), named like every tailor.dev/ annotation; the fit is a warning.
  assert.equal(await validateFiles([path], out, err), 1, err.text);
  const warnings = err.text.split('\n').filter((l) => l.includes(': warning: '));
  assert.equal(warnings.length, 1, err.text);
  assert.match(
    warnings[0]!,
    /runtime\.yaml: warning: VerticalPodAutoscaler\/db -> Deployment\/db: container postgres runs postgresql \(from image postgres:16\), which sizes its memory at start: resizePolicy memory NotRequired/,
  );
  assert.match(out.text, /VerticalPodAutoscaler\/other: metadata\.annotations\[tailor\.dev\/runtime\]: "app=cobol": unknown runtime "cobol"/);
});

test('tailor.dev/ annotations are checked: a bad value and an unknown key are named, the exit code is 1', async () => {
  const path = file(
    'annotations.yaml',
    VALID.replace(
      'metadata: {name: web}',
      `metadata:
  name: web
  annotations:
    tailor.dev/max-increase: 50%
    tailor.dev/cooldown: 5 minutes
    tailor.dev/disruption-windows: "0 2 * * *; * 25 * * *"
    tailor.dev/canary-shar: 20%`,
    ),
  );
  const r = tailor(['validate', '-f', path]);
  assert.equal(r.status, 1, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, 3, r.stdout);
  assert.equal(
    lines[0],
    `${path}: VerticalPodAutoscaler/web: metadata.annotations[tailor.dev/canary-shar]: "20%": unknown annotation (known: tailor.dev/max-increase, tailor.dev/max-decrease, tailor.dev/cooldown, tailor.dev/canary-share, tailor.dev/disruption-windows, tailor.dev/disruption-window-timezone, tailor.dev/allow-container-restart, tailor.dev/startup-cpu-boost, tailor.dev/startup-cpu-boost-duration, tailor.dev/runtime)`,
  );
  assert.equal(
    lines[1],
    `${path}: VerticalPodAutoscaler/web: metadata.annotations[tailor.dev/cooldown]: "5 minutes": not a duration (write e.g. 90s, 5m, 1h30m)`,
  );
  assert.match(lines[2]!, /metadata\.annotations\[tailor\.dev\/disruption-windows\]: "0 2 \* \* \*; \* 25 \* \* \*": "\* 25 \* \* \*": /);
  const good = file(
    'annotations-good.yaml',
    VALID.replace(
      'metadata: {name: web}',
      'metadata: {name: web, annotations: {tailor.dev/max-increase: 50%, tailor.dev/disruption-windows: "* 2-4 * * 1-5"}}',
    ),
  );
  assert.equal((await tailorInProcess(['validate', '-f', good])).code, 0);
});

test("a VPA written for upstream 1.8 (per-VPA OOM and memory settings, startupBoost) is valid; one out of upstream's bounds is named", async () => {
  const upstream18 = `${VALID}    - containerName: app
      oomBumpUpRatio: 3
      oomMinBumpUp: 100Mi
      memoryAggregationIntervalSeconds: 3600
      memoryAggregationIntervalCount: 24
      startupBoost: {cpu: {type: Quantity, quantity: 500m, durationSeconds: 15}}
  startupBoost: {cpu: {type: Factor, factor: 2}}
`.replace('{updateMode: InPlaceOrRecreate}', '{updateMode: InPlace, evictAfterOOMSeconds: 600}');
  const run = async (path: string) => {
    const keep = () => {
      const s = { text: '', write: (chunk: string) => ((s.text += chunk), true) };
      return s as unknown as NodeJS.WritableStream & { text: string };
    };
    const out = keep();
    const err = keep();
    return { code: await validateFiles([path], out, err), stdout: out.text, stderr: err.text };
  };
  const ok = await run(file('upstream-18.yaml', upstream18));
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  const path = file('upstream-18-bad.yaml', upstream18.replace('oomBumpUpRatio: 3', 'oomBumpUpRatio: 0.5').replace('factor: 2', 'quantity: 1'));
  const bad = await run(path);
  assert.equal(bad.code, 1);
  assert.deepEqual(bad.stdout.trim().split('\n'), [
    `${path}: VerticalPodAutoscaler/web: spec.resourcePolicy.containerPolicies[1].oomBumpUpRatio: must be greater than or equal to 1 (an OOM kill never lowers memory), not 0.5`,
    `${path}: VerticalPodAutoscaler/web: spec.startupBoost.cpu.factor: is required when type is "Factor"`,
    `${path}: VerticalPodAutoscaler/web: spec.startupBoost.cpu.quantity: must not be set when type is "Factor"`,
  ]);
});

/** Runs validate in-process, keeping what it writes. */
async function validateKept(args: string[]) {
  const keep = () => {
    const s = { text: '', write: (chunk: string) => ((s.text += chunk), true) };
    return s as unknown as NodeJS.WritableStream & { text: string };
  };
  const out = keep();
  const err = keep();
  return { code: await validateFiles(args, out, err), stdout: out.text, stderr: err.text };
}

test('a directory is searched with its subfolders (as kubectl apply -R): an invalid VPA in DIR/sub/ is found; hidden folders are not entered', async () => {
  const top = join(dir, 'nested');
  mkdirSync(join(top, 'sub', 'deeper'), { recursive: true });
  mkdirSync(join(top, '.git'));
  writeFileSync(join(top, 'sub', 'deeper', 'api.yaml'), INVALID);
  writeFileSync(join(top, 'sub', 'web.yml'), VALID);
  writeFileSync(join(top, '.git', 'broken.yaml'), INVALID);
  const r = await validateKept([top]);
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.stdout.trim().split('\n').length, 3, r.stdout);
  assert.ok(
    r.stdout
      .trim()
      .split('\n')
      .every((line) => line.startsWith(`${join(top, 'sub', 'deeper', 'api.yaml')}: VerticalPodAutoscaler/api: `)),
    r.stdout,
  );
  assert.match(r.stderr, /2 VerticalPodAutoscaler object\(s\) checked, 1 invalid/);
});

test('finding no VerticalPodAutoscaler at all is a failure (exit 1), not "0 invalid"', async () => {
  const empty = join(dir, 'no-manifests');
  mkdirSync(join(empty, 'sub'), { recursive: true });
  writeFileSync(join(empty, 'sub', 'notes.txt'), 'hello');
  const none = await validateKept([empty]);
  assert.equal(none.code, 1, none.stderr);
  assert.match(none.stderr, new RegExp(`nothing was validated: no \\.yaml, \\.yml or \\.json file in ${empty} \\(subfolders included\\)`));
  const deployments = await validateKept([file('only-deployment.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n')]);
  assert.equal(deployments.code, 1, deployments.stderr);
  assert.match(deployments.stderr, /nothing was validated: no VerticalPodAutoscaler in the 1 file\(s\) read/);
});

test('a file that is not YAML or JSON (random bytes, prose) says so, exit 1; it is not "1 checked, 1 invalid"', async () => {
  const bytes = Buffer.alloc(4096);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919 + 13) % 256; // every byte value, NULs included
  const garbage = join(dir, 'garbage.bin');
  writeFileSync(garbage, bytes);
  const r = await validateKept([garbage, file('prose.yaml', 'hello world\n')]);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, new RegExp(`^${garbage}: cannot parse: not YAML or JSON: binary data$`, 'm'));
  assert.match(r.stderr, /prose\.yaml: cannot parse: not YAML or JSON objects: document 1 is a string, not an object$/m);
  assert.match(r.stderr, /^0 VerticalPodAutoscaler object\(s\) checked, 0 invalid$/m);
});
