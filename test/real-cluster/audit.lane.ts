/**
 * The scheduled audit as installed (manifests/audit) on the real cluster: an overlay of the
 * manifests sets the lane-built image (image.sh) and points the CronJob at the lane's Prometheus;
 * two Jobs are made from the CronJob as `kubectl create job --from=cronjob/tailor-audit` makes them;
 * each runs `tailor audit` as 65532 on a read-only root with the audit's own service account
 * (get/update on one ConfigMap). Checked: both Jobs complete, the reports (HTML and JSON, timed and
 * latest) are on the reports volume, the summary is in ConfigMap tailor-audit, and the second report
 * compares with the first through it (the trend).
 *
 * What the lane supplies, as a cluster's admin or monitoring would:
 * - Prometheus (on this machine, loopback) scraping the kubelets and kube-state-metrics (ksm.sh: the
 *   audit reads current requests and owners from it); pods reach it through a forwarder on node 1's
 *   bridge address (the lane has no Service routing), so the overlay replaces `--prometheus-url`;
 *   and `--history=15m --step=15s`, since the lane has minutes of history, not 8 days;
 * - a volume for claim tailor-audit-reports: the lane has no storage class or provisioner, so a
 *   static hostPath PersistentVolume of 1Gi (no class, as the claim asks none) under the lane's state,
 *   owned by 65532 (fsGroup does not apply to hostPath volumes).
 * Runs with `npm run test:real-cluster` (as root), not with `npm test`.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import { startLocalPrometheus, type LocalPrometheus } from '../../src/local-prometheus/prometheus-process.ts';
import { dropNamespace, freshNamespace, installVpaCrd, laneKubeConfig, laneKubectl, waitFor } from './lane-cluster.ts';
import { busyboxDeployment } from './scenario-workloads.ts';
import { allowPrometheus, forward, kubeletScrapeConfig, kubeletTargets, lanePkiDir, promQuery, targetHealth } from './lane-prometheus.ts';

const NS = 'tailor-system';
const AUDIT_USER = 65532;
const PV_NAME = 'tailor-lane-audit-reports';
const REPORTS = join(process.env.TAILOR_CLUSTER_STATE ?? '/var/lib/tailor-real-cluster', 'audit-reports');
const kc = laneKubeConfig();
const core = kc.makeApiClient(k8s.CoreV1Api);
const apps = kc.makeApiClient(k8s.AppsV1Api);
const batch = kc.makeApiClient(k8s.BatchV1Api);
const overlay = mkdtempSync(join(tmpdir(), 'tailor-audit-'));
let namespace = '';
let prometheus: LocalPrometheus | undefined;
let forwarder: Server | undefined;

const kubectl = laneKubectl;

/** A Deployment of one busybox pod running `command` with these requests and limits. */
function deployment(name: string, command: string[], requests: Record<string, string>, limits: Record<string, string>): k8s.V1Deployment {
  return busyboxDeployment(name, { command, resources: { requests, limits } }, { terminationGracePeriodSeconds: 0 });
}

before(async () => {
  namespace = await freshNamespace(core, 'lane-audit');
  // busy: a CPU loop held at its 200m limit, 25m requested (under-provisioned); idle: sleeps on 500m (over).
  await apps.createNamespacedDeployment({
    namespace,
    body: deployment('busy', ['sh', '-c', 'while :; do :; done'], { cpu: '25m', memory: '32Mi' }, { cpu: '200m', memory: '32Mi' }),
  });
  await apps.createNamespacedDeployment({
    namespace,
    body: deployment('idle', ['sleep', '3600'], { cpu: '500m', memory: '64Mi' }, { cpu: '500m', memory: '64Mi' }),
  });

  // Tailor is installed first (docs/audit.md), so the VPA CRD exists: kube-state-metrics with Tailor's
  // VPA config serves no metric at all, its own pods' included, while that CRD is missing (seen here).
  await installVpaCrd(kc);
  const ksm = new URL(execFileSync('bash', ['test/real-cluster/ksm.sh', 'start'], { encoding: 'utf8' }).trim().split('\n').at(-1)!);
  await allowPrometheus(kc);
  const targets = await kubeletTargets(core);
  const config = `${kubeletScrapeConfig(targets, lanePkiDir(), 5)}  - job_name: kube-state-metrics\n    static_configs: [{targets: ['${ksm.host}']}]\n`;
  prometheus = await startLocalPrometheus({ config });
  // Node 1's address is its bridge's, on this machine: pods reach it through their gateway.
  const nodeIp = targets[0]!.slice(0, targets[0]!.lastIndexOf(':'));
  const forwarded = await forward(nodeIp, Number(new URL(prometheus.url).port));
  forwarder = forwarded.server;

  // The reports volume: a static PV for the claim (no storage class on the lane), writable by the audit's user.
  mkdirSync(REPORTS, { recursive: true });
  chownSync(REPORTS, AUDIT_USER, AUDIT_USER);
  await core.createPersistentVolume({
    body: {
      metadata: { name: PV_NAME },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        persistentVolumeReclaimPolicy: 'Retain',
        claimRef: { namespace: NS, name: 'tailor-audit-reports' },
        hostPath: { path: REPORTS, type: 'Directory' },
      },
    },
  });

  const image = execFileSync('bash', ['test/real-cluster/image.sh', '--import'], { encoding: 'utf8' }).trim().split('\n').at(-1)!;
  const [imageName, tag] = [image.slice(0, image.lastIndexOf(':')), image.slice(image.lastIndexOf(':') + 1)];
  await core.createNamespace({ body: { metadata: { name: NS } } });
  writeFileSync(
    join(overlay, 'kustomization.yaml'),
    [
      'apiVersion: kustomize.config.k8s.io/v1beta1',
      'kind: Kustomization',
      'resources:',
      `  - ${relative(overlay, resolve('manifests/audit'))}`,
      'patches:',
      '  - target: {kind: CronJob, name: tailor-audit}',
      '    patch: |',
      `      - {op: replace, path: /spec/jobTemplate/spec/template/spec/containers/0/args/1, value: "--prometheus-url=http://${nodeIp}:${forwarded.port}"}`,
      '      - {op: add, path: /spec/jobTemplate/spec/template/spec/containers/0/args/-, value: --history=15m}',
      '      - {op: add, path: /spec/jobTemplate/spec/template/spec/containers/0/args/-, value: --step=15s}',
      'images:',
      '  - name: tailor',
      `    newName: ${imageName}`,
      `    newTag: ${tag}`,
      '',
    ].join('\n'),
  );
  kubectl('apply', '-k', overlay);

  // Usage and requests of both pods in Prometheus before the first audit: a few CPU samples of a
  // container that has run for 90 s, so the recommendation stands on over a minute of data. (A
  // count alone, 12 samples for "a minute at the resource endpoint's 5 s", timed out twice: the
  // kubelet refreshes those stats every 10-20 s here, and Prometheus keeps the exposed timestamps.)
  let seen = '';
  await waitFor(
    'usage and requests of busy and idle in Prometheus',
    240_000,
    async () => {
      const requests = await promQuery(prometheus!.url, `kube_pod_container_resource_requests{namespace="${namespace}", resource="cpu"}`);
      const samples = await promQuery(
        prometheus!.url,
        `max by (pod) (count_over_time(container_cpu_usage_seconds_total{namespace="${namespace}", container="app"}[10m]))`,
      );
      const has = (list: Array<{ metric: Record<string, string> }>, app: string) => list.some((s) => s.metric['pod']?.startsWith(`${app}-`));
      // Each pod's state and sample count (a restarted container starts a new series).
      const pods = (await core.listNamespacedPod({ namespace })).items.map((p) => {
        const status = p.status?.containerStatuses?.[0];
        const count = Number(samples.find((s) => s.metric['pod'] === p.metadata?.name)?.value[1] ?? '0');
        const startedAt = status?.state?.running?.startedAt;
        const runningS = startedAt ? (Date.now() - new Date(startedAt).getTime()) / 1000 : 0;
        return {
          name: p.metadata?.name ?? '',
          ready: count >= 4 && runningS >= 90,
          text: `${p.metadata?.name} ${p.status?.phase} on ${p.spec?.nodeName ?? '-'}, restarts ${status?.restartCount ?? '-'}, ready ${status?.ready ?? '-'}, running ${Math.round(runningS)} s, ${count} cpu samples`,
        };
      });
      seen = `requests of ${requests.length} container(s); pods: ${pods.map((p) => p.text).join('; ')}; targets: ${await targetHealth(prometheus!.url)}`;
      return ['busy', 'idle'].every((app) => has(requests, app) && pods.some((p) => p.name.startsWith(`${app}-`) && p.ready)) ? true : undefined;
    },
    () => seen,
  );
});

after(async () => {
  try {
    kubectl('delete', '-k', overlay, '--ignore-not-found', '--wait=false');
    await core.deleteNamespace({ name: NS }).catch(() => undefined);
    await waitFor(`namespace ${NS} deleted`, 180_000, () =>
      core.readNamespace({ name: NS }).then(
        () => undefined,
        () => true,
      ),
    );
    await core.deletePersistentVolume({ name: PV_NAME }).catch(() => undefined);
    if (namespace) await dropNamespace(core, namespace);
  } finally {
    forwarder?.close();
    await prometheus?.stop();
    execFileSync('bash', ['test/real-cluster/ksm.sh', 'stop']);
    rmSync(overlay, { recursive: true, force: true });
    rmSync(REPORTS, { recursive: true, force: true });
  }
});

/** Runs a Job made from the CronJob and waits until it succeeds; on failure, says why with its pod's log. */
async function auditNow(name: string): Promise<void> {
  kubectl('-n', NS, 'create', 'job', `--from=cronjob/tailor-audit`, name);
  const logs = () => {
    try {
      return kubectl('-n', NS, 'logs', `job/${name}`, '--tail=30');
    } catch (error) {
      return (error as Error).message;
    }
  };
  const job = await waitFor(
    `Job ${name} finished`,
    300_000,
    async () => {
      const j = await batch.readNamespacedJob({ namespace: NS, name });
      return (j.status?.succeeded ?? 0) > 0 || (j.status?.failed ?? 0) > 0 ? j : undefined;
    },
    logs,
  );
  assert.equal(job.status?.succeeded, 1, `Job ${name} failed:\n${logs()}`);
}

interface AuditRow {
  namespace: string;
  workload: { kind: string; name: string };
  container: string;
  verdict: string;
  confidence: string;
  trend: unknown;
  cpu: { request: number | null; target: number | null };
}
interface AuditReport {
  schemaVersion: number;
  kind: string;
  generatedAt: string;
  previous: { source: string } | null;
  workloads: AuditRow[];
}
const ours = (report: AuditReport, name: string) =>
  report.workloads.find((w) => w.namespace === namespace && w.workload.name === name && w.container === 'app');

test('the audit Job made from the CronJob runs on the lane-built image, writes the reports to its volume and the summary to its ConfigMap; a second one shows the trend', async () => {
  const claim = await waitFor('claim tailor-audit-reports Bound to the lane PV', 60_000, async () => {
    const c = await core.readNamespacedPersistentVolumeClaim({ namespace: NS, name: 'tailor-audit-reports' });
    return c.status?.phase === 'Bound' ? c : undefined;
  });
  assert.equal(claim.spec?.volumeName, PV_NAME);

  await auditNow('audit-lane-1');
  const pod = (await core.listNamespacedPod({ namespace: NS, labelSelector: 'job-name=audit-lane-1' })).items[0]!;
  assert.equal(pod.spec?.serviceAccountName, 'tailor-audit');
  assert.equal(pod.spec?.containers[0]?.securityContext?.readOnlyRootFilesystem, true);
  const files = readdirSync(REPORTS).sort();
  assert.deepEqual(
    files.filter((f) => f.startsWith('latest.')),
    ['latest.html', 'latest.json'],
  );
  assert.equal(files.filter((f) => /^audit-\d{8}T\d{6}Z\.(html|json)$/.test(f)).length, 2, files.join(', '));
  const first = JSON.parse(readFileSync(join(REPORTS, 'latest.json'), 'utf8')) as AuditReport;
  assert.equal(first.schemaVersion, 1);
  assert.equal(first.kind, 'TailorAuditReport');
  assert.equal(first.previous, null, 'the first audit has nothing to compare with');
  const busy = ours(first, 'busy');
  const idle = ours(first, 'idle');
  assert.ok(busy && idle, `rows for busy and idle (rows: ${first.workloads.map((w) => `${w.namespace}/${w.workload.name}/${w.container}`).join(', ')})`);
  assert.equal(busy.verdict, 'under', `busy (25m requested, a loop at 200m) is under-provisioned: ${JSON.stringify(busy)}`);
  assert.equal(idle.cpu.request, 500);
  assert.ok(idle.cpu.target !== null && idle.cpu.target < 450, `idle's cpu target is well below its 500m request: ${JSON.stringify(idle.cpu)}`);
  const html = readFileSync(join(REPORTS, 'latest.html'), 'utf8');
  assert.match(html, /^<!DOCTYPE html>/i);
  assert.ok(html.includes(namespace) && html.includes('<svg'), 'the HTML names the namespace and has charts');
  const stored = (await core.readNamespacedConfigMap({ namespace: NS, name: 'tailor-audit' })).data?.['summary.json'];
  const summary = JSON.parse(stored ?? 'null') as { kind: string; generatedAt: string; rows: unknown[][] } | null;
  assert.equal(summary?.kind, 'TailorAuditSummary');
  assert.equal(summary.generatedAt, first.generatedAt);
  assert.ok(
    summary.rows.some((r) => r[0] === namespace && r[2] === 'busy'),
    'the summary has busy',
  );

  await auditNow('audit-lane-2');
  const second = JSON.parse(readFileSync(join(REPORTS, 'latest.json'), 'utf8')) as AuditReport;
  assert.notEqual(second.generatedAt, first.generatedAt);
  assert.equal(second.previous?.source, `configmap:${NS}/tailor-audit`, 'compared with the summary the first one stored');
  assert.ok(ours(second, 'busy')?.trend, 'busy has a trend');
  assert.equal(readdirSync(REPORTS).filter((f) => f.startsWith('audit-')).length, 4, 'two timed reports per audit');
  const after = JSON.parse((await core.readNamespacedConfigMap({ namespace: NS, name: 'tailor-audit' })).data!['summary.json']!) as { generatedAt: string };
  assert.equal(after.generatedAt, second.generatedAt, 'the summary replaced');
  console.log(
    `audit on the real cluster: busy ${busy.verdict} (cpu ${busy.cpu.request}m requested, target ${busy.cpu.target}m), idle ${idle.verdict} (cpu target ${idle.cpu.target}m); ${first.workloads.length} rows; summary ${stored!.length} bytes`,
  );
});
