import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSim, type SimFixture } from './sim-fixture.ts';

let sim: SimFixture;
let dir: string;
let kubeconfig: string;

before(async () => {
  sim = await startSim();
  dir = await mkdtemp(join(tmpdir(), 'kube-sim-kubectl-'));
  kubeconfig = join(dir, 'kubeconfig');
  await sim.server.writeKubeconfig(kubeconfig);
});
after(async () => {
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs kubectl asynchronously (the server lives in this process) and returns its output. */
function kubectl(args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile('kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), ...args], { timeout: 20_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
}

const podYaml = `apiVersion: v1
kind: Pod
metadata:
  name: web
  labels: {app: web}
spec:
  containers:
  - name: app
    image: nginx:1.27
    resources:
      requests: {cpu: 100m, memory: 64Mi}
      limits: {cpu: 200m, memory: 128Mi}
`;

test('kubectl create, get, describe, patch, status patch and delete against the sim', async () => {
  const created = await kubectl(['create', '-f', '-'], podYaml);
  assert.equal(created.code, 0, created.stderr);
  assert.equal(created.stdout.trim(), 'pod/web created');

  const list = await kubectl(['get', 'pods']);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\nweb\s+0\/1\s+Pending\s+0\s+\d+s\n$/);

  const described = await kubectl(['describe', 'pod', 'web']);
  assert.equal(described.code, 0, described.stderr);
  assert.match(described.stdout, /QoS Class:\s+Burstable/);

  const patched = await kubectl(['patch', 'pod', 'web', '-p', '{"spec":{"containers":[{"name":"app","image":"nginx:1.28"}]}}']);
  assert.equal(patched.code, 0, patched.stderr);
  const image = await kubectl(['get', 'pod', 'web', '-o', 'jsonpath={.spec.containers[0].image} {.metadata.generation}']);
  assert.equal(image.stdout, 'nginx:1.28 2');

  const status = await kubectl(['patch', 'pod', 'web', '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Running"}}']);
  assert.equal(status.code, 0, status.stderr);
  const phase = await kubectl(['get', 'pod', 'web', '-o', 'jsonpath={.status.phase}']);
  assert.equal(phase.stdout, 'Running');

  const forbidden = await kubectl(['patch', 'pod', 'web', '-p', '{"spec":{"restartPolicy":"Never"}}']);
  assert.notEqual(forbidden.code, 0);
  assert.match(forbidden.stderr, /The Pod "web" is invalid: spec: Forbidden: pod updates may not change fields/);

  const deleted = await kubectl(['delete', 'pod', 'web']);
  assert.equal(deleted.code, 0, deleted.stderr);
  const missing = await kubectl(['get', 'pod', 'web']);
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr, /Error from server \(NotFound\): pods "web" not found/);
});

test('kubectl apply creates and updates a Deployment and a VPA; kubectl scale uses the scale subresource', async () => {
  const manifests = `apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  replicas: 2
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers: [{name: app, image: "api:1"}]
---
apiVersion: autoscaling.k8s.io/v1
kind: VerticalPodAutoscaler
metadata: {name: api}
spec:
  targetRef: {apiVersion: apps/v1, kind: Deployment, name: api}
  updatePolicy: {updateMode: InPlaceOrRecreate}
`;
  const first = await kubectl(['apply', '-f', '-'], manifests);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /deployment.apps\/api created\nverticalpodautoscaler.autoscaling.k8s.io\/api created/);
  const second = await kubectl(['apply', '-f', '-'], manifests.replace('api:1', 'api:2'));
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout, /deployment.apps\/api configured\nverticalpodautoscaler.autoscaling.k8s.io\/api unchanged/);
  const scaled = await kubectl(['scale', 'deployment', 'api', '--replicas=4']);
  assert.equal(scaled.code, 0, scaled.stderr);
  const spec = await kubectl(['get', 'deploy', 'api', '-o', 'jsonpath={.spec.replicas} {.spec.template.spec.containers[0].image}']);
  assert.equal(spec.stdout, '4 api:2');
  const vpas = await kubectl(['get', 'vpa']);
  assert.match(vpas.stdout, /^NAME\s+MODE\s+CPU\s+MEM\s+PROVIDED\s+AGE\napi\s+InPlaceOrRecreate\s+\d+s\n$/);
  const invalid = await kubectl(['apply', '-f', '-'], manifests.replace('InPlaceOrRecreate', 'Sometimes'));
  assert.notEqual(invalid.code, 0);
  assert.match(invalid.stderr, /Unsupported value: "Sometimes"/);
});

test('kubectl auth can-i answers through SelfSubjectAccessReview', async () => {
  const res = await kubectl(['auth', 'can-i', 'patch', 'pods', '--subresource=resize']);
  assert.equal(res.stdout.trim(), 'yes');
});

test('kubectl drain evicts through pods/eviction and waits on a PodDisruptionBudget', async () => {
  const setup = `apiVersion: v1
kind: Node
metadata: {name: node-1}
---
apiVersion: v1
kind: Pod
metadata: {name: guarded, labels: {app: guarded}}
spec:
  nodeName: node-1
  containers: [{name: c, image: "c:1"}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: guarded}
spec:
  selector: {matchLabels: {app: guarded}}
  minAvailable: 1
`;
  assert.equal((await kubectl(['create', '-f', '-'], setup)).code, 0);
  sim.server.store.mutate('pods', 'default', 'guarded', (draft) => {
    draft.status = { ...(draft.status as object), phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
  });
  const blocked = await kubectl(['drain', 'node-1', '--force', '--timeout=1s']);
  assert.notEqual(blocked.code, 0);
  assert.match(blocked.stderr, /error when evicting pods\/"guarded" -n "default"/);
  assert.equal((await kubectl(['delete', 'pdb', 'guarded'])).code, 0);
  const drained = await kubectl(['drain', 'node-1', '--force']);
  assert.equal(drained.code, 0, drained.stderr);
  assert.match(drained.stdout, /pod\/guarded evicted/);
  assert.equal(sim.server.store.get('pods', 'default', 'guarded'), undefined);
});

test('kubectl create <kind> sends protobuf (no JSON fallback on 415) and kube-sim decodes it', async () => {
  // -v=8 logs the request's headers (the log format differs between kubectl 1.32 and 1.33, which
  // the gcloud kubectl dispatcher may pick): the typed create commands send protobuf.
  const deployment = await kubectl(['create', 'deployment', 'typed', '--image=nginx:1.27', '--replicas=0', '--port=8080', '-v=8']);
  assert.equal(deployment.code, 0, deployment.stderr);
  assert.match(deployment.stderr, /\/apis\/apps\/v1\/namespaces\/default\/deployments\?fieldManager=kubectl-create/);
  assert.match(deployment.stderr, /Content-Type: application\/vnd\.kubernetes\.protobuf\n/);
  assert.match(deployment.stderr, /201 Created/);
  const d = sim.server.store.get('deployments.apps', 'default', 'typed') as unknown as {
    metadata: { labels: Record<string, string> };
    spec: { replicas: number; selector: unknown; template: { metadata: Record<string, unknown>; spec: { containers: Array<Record<string, unknown>> } } };
  };
  assert.equal(d.spec.replicas, 0, 'a pointer field set to 0 is kept');
  assert.deepEqual(d.metadata.labels, { app: 'typed' });
  assert.deepEqual(d.spec.selector, { matchLabels: { app: 'typed' } });
  assert.deepEqual(d.spec.template.metadata, { labels: { app: 'typed' } }, 'the zero creationTimestamp is left out');
  const c = d.spec.template.spec.containers[0]!;
  assert.deepEqual([c['name'], c['image'], c['ports'], c['stdin']], ['nginx', 'nginx:1.27', [{ containerPort: 8080 }], undefined]);

  const commands: Array<[string[], string]> = [
    [['create', 'namespace', 'typed-ns'], 'namespace/typed-ns created'],
    [['create', 'configmap', 'typed-cm', '--from-literal=a=b'], 'configmap/typed-cm created'],
    [['create', 'secret', 'generic', 'typed-secret', '--from-literal=password=s3cret'], 'secret/typed-secret created'],
    [['create', 'serviceaccount', 'typed-sa'], 'serviceaccount/typed-sa created'],
    [['create', 'service', 'nodeport', 'typed-svc', '--tcp=80:http'], 'service/typed-svc created'],
    [['create', 'role', 'typed-role', '--verb=get,list', '--resource=pods,deployments.apps'], 'role.rbac.authorization.k8s.io/typed-role created'],
    [['create', 'rolebinding', 'typed-rb', '--role=typed-role', '--serviceaccount=default:typed-sa'], 'rolebinding.rbac.authorization.k8s.io/typed-rb created'],
    [['create', 'poddisruptionbudget', 'typed-pdb', '--selector=app=typed', '--max-unavailable=50%'], 'poddisruptionbudget.policy/typed-pdb created'],
    [['create', 'quota', 'typed-quota', '--hard=pods=10,requests.cpu=2500m'], 'resourcequota/typed-quota created'],
    [['create', 'cronjob', 'typed-cron', '--image=busybox', '--schedule=*/5 * * * *', '--', 'echo', 'hi'], 'cronjob.batch/typed-cron created'],
  ];
  for (const [args, expected] of commands) {
    const res = await kubectl(args);
    assert.equal(res.code, 0, `${args.join(' ')}: ${res.stderr}`);
    assert.equal(res.stdout.trim(), expected);
  }
  const get = (resource: string, name: string, namespace = 'default') =>
    sim.server.store.get(resource, namespace, name) as unknown as Record<string, Record<string, unknown>>;
  assert.deepEqual(get('configmaps', 'typed-cm')['data'], { a: 'b' });
  assert.equal(get('secrets', 'typed-secret')['data']!['password'], Buffer.from('s3cret').toString('base64'), 'bytes map values become base64');
  assert.equal(get('secrets', 'typed-secret')['type'], 'Opaque' as unknown, 'defaulted by the server');
  const ports = get('services', 'typed-svc')['spec']!['ports'] as Array<Record<string, unknown>>;
  assert.deepEqual([ports[0]!['port'], ports[0]!['targetPort'], ports[0]!['protocol']], [80, 'http', 'TCP'], 'IntOrString as a string');
  assert.deepEqual(
    get('roles.rbac.authorization.k8s.io', 'typed-role')['rules'],
    [
      { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] },
      { verbs: ['get', 'list'], apiGroups: ['apps'], resources: ['deployments'] },
    ] as unknown,
    'empty strings inside lists are kept (the core group)',
  );
  assert.deepEqual(get('rolebindings.rbac.authorization.k8s.io', 'typed-rb')['subjects'], [
    { kind: 'ServiceAccount', name: 'typed-sa', namespace: 'default' },
  ] as unknown);
  assert.equal(get('poddisruptionbudgets.policy', 'typed-pdb')['spec']!['maxUnavailable'], '50%');
  assert.deepEqual(get('resourcequotas', 'typed-quota')['spec']!['hard'], { pods: '10', 'requests.cpu': '2500m' }, 'Quantities as strings');
  const cron = get('cronjobs.batch', 'typed-cron')['spec'] as unknown as {
    schedule: string;
    jobTemplate: { spec: { template: { spec: { containers: Array<{ command: string[] }> } } } };
  };
  assert.equal(cron.schedule, '*/5 * * * *');
  assert.deepEqual(cron.jobTemplate.spec.template.spec.containers[0]!.command, ['echo', 'hi']);
  assert.ok(sim.server.store.get('namespaces', '', 'typed-ns'));
  assert.ok(sim.server.store.get('serviceaccounts', 'default', 'typed-sa'));
});
