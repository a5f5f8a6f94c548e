/**
 * charts/tailor under the real Helm (`npm run test:helm`; not part of `npm test`, which has no Helm):
 * `helm lint` is clean; `helm template` with the default values renders the same objects as
 * `kubectl kustomize manifests/install` but for the differences docs/helm.md lists (chart-compare.ts:
 * every field of every object, after taking Helm's labels, the config checksum and kustomize's
 * ConfigMap hash off), and so do the two switches against their kustomize components; values that
 * are not the defaults take effect where they should.
 *
 * Helm is test infrastructure, built once from the Go module proxy (test/helm/build-helm.sh). When it
 * is not cached this prints `helm chart check: SKIPPED: <why>` and exits 0 (CI never builds it).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { execFile } from 'node:child_process';
import type { AnyOptionSpec } from '../../src/config/option-spec.ts';
import { RUN_OPTIONS, resolveRunConfig } from '../../src/controller/run-config.ts';
import { find, render, renderCombination, type Manifest } from '../manifests/kustomize.ts';
import { cachedTool } from '../support/cached-tool.ts';
import { CONFIG_CHECKSUM, HELM_LABELS, compareRenders, helmTemplate, runHelm } from './chart-compare.ts';

const CHART = fileURLToPath(new URL('../../charts/tailor', import.meta.url));
const BUILD_HELM = fileURLToPath(new URL('./build-helm.sh', import.meta.url));
const TAILOR_BIN = fileURLToPath(new URL('../../bin/tailor.mjs', import.meta.url));

type Json = Record<string, unknown>;
interface Container {
  name: string;
  image: string;
  imagePullPolicy?: string;
  args: string[];
  env: Array<{ name: string; value?: string }>;
  resources: unknown;
}
interface PodSpec {
  serviceAccountName: string;
  containers: Container[];
  nodeSelector?: unknown;
  tolerations?: unknown;
  affinity?: unknown;
  imagePullSecrets?: unknown;
}
const podSpec = (d: Manifest) => ((d['spec'] as Json)['template'] as Json)['spec'] as PodSpec;
const podAnnotations = (d: Manifest) => (((d['spec'] as Json)['template'] as Json)['metadata'] as { annotations?: Record<string, string> }).annotations ?? {};
const keys = (objects: Manifest[]) => objects.map((o) => `${o.kind}/${o.metadata.name}`).sort();

type AuditPod = PodSpec & {
  volumes: Json[];
  containers: Array<Container & { volumeMounts: Json[]; env: Array<{ name: string; value?: string; valueFrom?: unknown }> }>;
};
const auditPod = (objects: Manifest[]) =>
  ((((find(objects, 'CronJob', 'tailor-audit')['spec'] as Json)['jobTemplate'] as Json)['spec'] as Json)['template'] as Json)['spec'] as AuditPod;

/** Every --flag of the audit's arguments is one `tailor audit --help` lists (the audit reads flags only). */
async function assertAuditFlagsExist(args: string[]): Promise<void> {
  const help = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [TAILOR_BIN, 'audit', '--help'], { timeout: 60_000 }, (err, stdout) => (err ? reject(err) : resolve(stdout))),
  );
  for (const arg of args.slice(1)) {
    const flag = /^--[a-z-]+/.exec(arg)?.[0];
    assert.ok(flag && new RegExp(`^\\s+(-\\w, )?${flag}[ ,\\n]`, 'm').test(help), `tailor audit has no ${flag ?? arg}`);
  }
}

/**
 * Each Deployment's settings (ConfigMap, variables, flags) resolved as `tailor run` resolves them at
 * start-up (its option table and rules), with the $(...) references Kubernetes expands filled in and
 * Secret values stood in for: a renamed option or a forbidden combination fails here, not in a pod.
 */
function assertRunConfigAccepted(objects: Manifest[]): void {
  const rows = Object.values(RUN_OPTIONS) as AnyOptionSpec[];
  const config = find(objects, 'ConfigMap', 'tailor-config')['data'] as Record<string, string>;
  for (const d of objects.filter((o) => o.kind === 'Deployment')) {
    const c = podSpec(d).containers[0]! as Container & { env: Array<{ name: string; value?: string; valueFrom?: Record<string, unknown> }> };
    const env: Record<string, string> = { ...config };
    for (const e of c.env) {
      const raw = e.value ?? (e.valueFrom?.['fieldRef'] ? 'tailor-system' : 'secret-value');
      env[e.name] = raw.replace(/\$\(([A-Z0-9_]+)\)/g, (_, name: string) => env[name] ?? `$(${name})`);
    }
    const cli: Record<string, string | boolean> = {};
    const flags = c.args.slice(1);
    for (let i = 0; i < flags.length; i++) {
      const flag = flags[i]!.replace(/^--/, '');
      const key = Object.entries(RUN_OPTIONS).find(([, r]) => (r as AnyOptionSpec).flag === flag.replace(/^no-/, ''))?.[0];
      assert.ok(key, `${d.metadata.name}: --${flag} is not an option of tailor run`);
      cli[key] = flag.startsWith('no-') ? false : (RUN_OPTIONS as Record<string, AnyOptionSpec>)[key]!.type.name === 'boolean' ? true : flags[++i]!;
    }
    for (const name of Object.keys(env).filter((n) => n.startsWith('TAILOR_')))
      assert.ok(
        rows.some((r) => r.env === name),
        `${d.metadata.name}: ${name} is no option`,
      );
    assert.doesNotThrow(() => resolveRunConfig(cli, env), `${d.metadata.name}`);
  }
}

const found = cachedTool(BUILD_HELM);
if ('skip' in found) {
  console.log(`helm chart check: SKIPPED: ${found.skip}`);
} else {
  const helm = found.path;
  const scratch = mkdtempSync(join(tmpdir(), 'tailor-helm-check-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));
  const valuesFile = (name: string, text: string) => {
    const path = join(scratch, name);
    writeFileSync(path, text);
    return path;
  };

  describe('charts/tailor under helm', () => {
    test('helm lint --strict is clean with the default values and with every value changed', async () => {
      const version = await runHelm(helm, ['version', '--template', '{{.Version}}']);
      console.log(`helm ${version.stdout.trim()} (${helm})`);
      for (const args of [[], ['--values', valuesFile('lint.yaml', NON_DEFAULT)], ['--values', valuesFile('lint-monitoring.yaml', MONITORING)]]) {
        const lint = await runHelm(helm, ['lint', '--strict', CHART, '--namespace', 'tailor-system', ...args]);
        assert.equal(lint.code, 0, `helm lint --strict ${args.join(' ')}:\n${lint.stdout}${lint.stderr}`);
        assert.match(lint.stdout, /1 chart\(s\) linted, 0 chart\(s\) failed/);
        assert.doesNotMatch(lint.stdout, /\[(WARNING|ERROR)\]/, lint.stdout);
      }
    });

    test("the default values render the objects of kubectl kustomize manifests/install, field for field, but for Helm's labels and the config name", async () => {
      const [chart, kustomize] = await Promise.all([helmTemplate(helm, CHART), render('install')]);
      assert.deepEqual(compareRenders(chart, kustomize.objects), []);
      assert.equal(chart.length, kustomize.objects.length);
      // What the normalization took off is there, and only that.
      for (const o of chart.filter((x) => x.kind !== 'CustomResourceDefinition')) {
        for (const l of HELM_LABELS) assert.ok(o.metadata.labels?.[l], `${o.kind}/${o.metadata.name} has label ${l}`);
        assert.equal(o.metadata.labels?.['app.kubernetes.io/instance'], 'tailor');
      }
      for (const d of chart.filter((x) => x.kind === 'Deployment')) assert.match(podAnnotations(d)[CONFIG_CHECKSUM] ?? '', /^[0-9a-f]{64}$/);
      // The CRDs come from crds/ (Helm's convention), not from templates: helm template leaves them out without --include-crds.
      const templatesOnly = await runHelm(helm, ['template', 'tailor', CHART, '--namespace', 'tailor-system']);
      assert.doesNotMatch(templatesOnly.stdout, /kind: CustomResourceDefinition/);
    });

    test('upstreamWebhookNames=true renders what the upstream-webhook component does', async () => {
      const [chart, kustomize] = await Promise.all([
        helmTemplate(helm, CHART, ['--set', 'upstreamWebhookNames=true']),
        renderCombination(['install'], ['components/upstream-webhook']),
      ]);
      assert.deepEqual(compareRenders(chart, kustomize.objects), []);
      assert.ok(chart.some((o) => o.kind === 'MutatingWebhookConfiguration' && o.metadata.name === 'vpa-webhook-config'));
      assert.ok(!chart.some((o) => o.metadata.name === 'tailor' && o.kind.endsWith('WebhookConfiguration')));
    });

    test('kubernetes132=true renders what the kubernetes-1.32 component does, and both switches what both components do', async () => {
      const [chart, kustomize] = await Promise.all([
        helmTemplate(helm, CHART, ['--set', 'kubernetes132=true']),
        renderCombination(['install'], ['components/kubernetes-1.32']),
      ]);
      assert.deepEqual(compareRenders(chart, kustomize.objects), []);
      const [both, kustomizeBoth] = await Promise.all([
        helmTemplate(helm, CHART, ['--set', 'kubernetes132=true', '--set', 'upstreamWebhookNames=true']),
        renderCombination(['install'], ['components/kubernetes-1.32', 'components/upstream-webhook']),
      ]);
      assert.deepEqual(compareRenders(both, kustomizeBoth.objects), []);
    });

    test('monitoring.enabled=true renders the objects of kubectl kustomize manifests/install-with-monitoring', async () => {
      const [chart, kustomize] = await Promise.all([helmTemplate(helm, CHART, ['--set', 'monitoring.enabled=true']), render('install-with-monitoring')]);
      assert.deepEqual(compareRenders(chart, kustomize.objects), []);
      assert.deepEqual(
        keys(chart).filter((k) => /Monitor|PrometheusRule|kube-state-metrics|grafana/.test(k)),
        [
          'ClusterRole/tailor-kube-state-metrics-vpa',
          'ConfigMap/tailor-grafana-dashboard',
          'ConfigMap/tailor-kube-state-metrics-vpa',
          'PrometheusRule/tailor-memory-warnings',
          'ServiceMonitor/tailor',
        ],
      );
      // The dashboard and the rule's templates ({{ $labels.pod }}) arrive verbatim, not templated by Helm.
      const dashboard = JSON.parse((find(chart, 'ConfigMap', 'tailor-grafana-dashboard')['data'] as Record<string, string>)['tailor.json']!) as {
        title: string;
      };
      assert.ok(dashboard.title);
      assert.match(JSON.stringify(find(chart, 'PrometheusRule', 'tailor-memory-warnings')['spec']), /\{\{ \$labels\.pod \}\}/);
    });

    test('monitoring with the PodMonitor instead of the ServiceMonitor renders what the pod-monitor component adds; each part can be left out', async () => {
      const [chart, kustomize] = await Promise.all([
        helmTemplate(helm, CHART, [
          '--set',
          'monitoring.enabled=true',
          '--set',
          'monitoring.podMonitor.enabled=true',
          '--set',
          'monitoring.serviceMonitor.enabled=false',
        ]),
        renderCombination(['install'], ['monitoring', 'monitoring/pod-monitor']),
      ]);
      // kustomize's component adds the PodMonitor beside the ServiceMonitor; the chart renders one of them.
      const withoutServiceMonitor = kustomize.objects.filter((o) => o.kind !== 'ServiceMonitor');
      assert.equal(withoutServiceMonitor.length, kustomize.objects.length - 1);
      assert.deepEqual(compareRenders(chart, withoutServiceMonitor), []);
      const monitoringKinds = /Monitor|PrometheusRule|kube-state-metrics|grafana/;
      const off = await helmTemplate(helm, CHART, [
        '--set',
        'monitoring.enabled=true',
        '--set',
        'monitoring.serviceMonitor.enabled=false',
        '--set',
        'monitoring.prometheusRule.enabled=false',
        '--set',
        'monitoring.kubeStateMetrics.enabled=false',
        '--set',
        'monitoring.grafanaDashboard.enabled=false',
      ]);
      assert.deepEqual(
        keys(off).filter((k) => monitoringKinds.test(k)),
        [],
      );
      const defaults = await helmTemplate(helm, CHART);
      assert.deepEqual(
        keys(defaults).filter((k) => monitoringKinds.test(k)),
        [],
        'off by default',
      );
    });

    test('monitoring values: extra labels for the Prometheus selector, interval, the kube-state-metrics binding, the dashboard namespace and labels', async () => {
      const objects = await helmTemplate(helm, CHART, ['--values', valuesFile('monitoring.yaml', MONITORING)], 'autoscaling');
      for (const kind of ['ServiceMonitor', 'PodMonitor', 'PrometheusRule']) {
        const o = objects.find((x) => x.kind === kind)!;
        assert.equal(o.metadata.labels?.['release'], 'kube-prometheus-stack', kind);
        assert.equal(o.metadata.labels?.['app.kubernetes.io/name'], 'tailor', kind);
        assert.equal(o.metadata.namespace, 'autoscaling', kind);
      }
      const sm = find(objects, 'ServiceMonitor', 'tailor')['spec'] as Json;
      assert.deepEqual(sm['namespaceSelector'], { matchNames: ['autoscaling'] });
      assert.equal((sm['endpoints'] as Json[])[0]!['interval'], '15s');
      assert.equal(((find(objects, 'PodMonitor', 'tailor')['spec'] as Json)['podMetricsEndpoints'] as Json[])[0]!['interval'], '15s');
      const binding = find(objects, 'ClusterRoleBinding', 'tailor-kube-state-metrics-vpa');
      assert.deepEqual(binding['roleRef'], { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'tailor-kube-state-metrics-vpa' });
      assert.deepEqual(binding['subjects'], [{ kind: 'ServiceAccount', name: 'kube-state-metrics', namespace: 'monitoring' }]);
      const dashboard = find(objects, 'ConfigMap', 'tailor-grafana-dashboard');
      assert.equal(dashboard.metadata.namespace, 'grafana');
      assert.equal(dashboard.metadata.labels?.['grafana_dashboard'], undefined, 'a default label set to null is left out (Helm merges maps)');
      assert.equal(dashboard.metadata.labels?.['team-dashboards'], 'yes');
      const noNamespace = await runHelm(helm, [
        'template',
        'tailor',
        CHART,
        '--set',
        'monitoring.enabled=true',
        '--set',
        'monitoring.kubeStateMetrics.serviceAccount.name=ksm',
      ]);
      assert.notEqual(noNamespace.code, 0);
      assert.match(noNamespace.stderr, /monitoring\.kubeStateMetrics\.serviceAccount\.namespace/);
    });

    test('audit.enabled=true renders the objects of manifests/install plus manifests/audit, and with monitoring those of install-with-monitoring plus audit', async () => {
      const [chart, kustomize] = await Promise.all([helmTemplate(helm, CHART, ['--set', 'audit.enabled=true']), renderCombination(['install', 'audit'], [])]);
      assert.deepEqual(compareRenders(chart, kustomize.objects), []);
      assert.deepEqual(
        keys(chart).filter((k) => /audit/.test(k)),
        [
          'ConfigMap/tailor-audit',
          'CronJob/tailor-audit',
          'PersistentVolumeClaim/tailor-audit-reports',
          'Role/tailor-audit',
          'RoleBinding/tailor-audit',
          'ServiceAccount/tailor-audit',
        ],
      );
      const [all, kustomizeAll] = await Promise.all([
        helmTemplate(helm, CHART, ['--set', 'audit.enabled=true', '--set', 'monitoring.enabled=true']),
        renderCombination(['install-with-monitoring', 'audit'], []),
      ]);
      assert.deepEqual(compareRenders(all, kustomizeAll.objects), []);
      assert.deepEqual(
        keys(await helmTemplate(helm, CHART)).filter((k) => /audit/.test(k)),
        [],
        'off by default',
      );
    });

    test('audit values: schedule, time zone, kept reports, extra arguments and variables, resources, the volume, scheduling, service account, namespace', async () => {
      const objects = await helmTemplate(helm, CHART, ['--values', valuesFile('audit.yaml', AUDIT)], 'autoscaling');
      const cron = find(objects, 'CronJob', 'tailor-audit');
      const spec = cron['spec'] as Json;
      assert.equal(spec['schedule'], '30 2 * * 1');
      assert.equal(spec['timeZone'], undefined);
      const pod = ((spec['jobTemplate'] as Json)['spec'] as Json)['template'] as Json;
      const ps = pod['spec'] as PodSpec & { volumes: Json[] };
      const c = ps.containers[0]!;
      assert.equal(c.image, 'registry.example.com/tailor:9.9.9');
      assert.deepEqual(c.args, [
        'audit',
        '--prometheus-url=http://thanos-query.monitoring.svc:10902',
        '--store=configmap:autoscaling/tailor-audit',
        '--output-dir=/reports',
        '--no-progress',
        '--namespace=shop',
        '--cpu-hour-price=0.0316',
      ]);
      assert.deepEqual(c.env, [
        { name: 'NODE_OPTIONS', value: '--max-old-space-size=1536' },
        { name: 'TZ', value: 'Europe/Paris' },
      ]);
      assert.deepEqual(c.resources, { requests: { cpu: '200m', memory: '1Gi' }, limits: { memory: '2Gi' } });
      assert.deepEqual(ps.nodeSelector, { pool: 'batch' });
      assert.equal(ps.serviceAccountName, 'auditor');
      assert.ok(!objects.some((o) => o.kind === 'ServiceAccount' && o.metadata.name === 'auditor'), 'create: false');
      assert.deepEqual(find(objects, 'RoleBinding', 'tailor-audit')['subjects'], [{ kind: 'ServiceAccount', name: 'auditor', namespace: 'autoscaling' }]);
      assert.deepEqual(ps.volumes[0], { name: 'reports', persistentVolumeClaim: { claimName: 'audit-reports' } });
      assert.ok(!objects.some((o) => o.kind === 'PersistentVolumeClaim'), 'an existing claim: none rendered');
      for (const o of objects.filter((x) => /audit/.test(x.metadata.name))) assert.equal(o.metadata.namespace, 'autoscaling', `${o.kind}/${o.metadata.name}`);

      const sized = await helmTemplate(helm, CHART, [
        '--set',
        'audit.enabled=true',
        '--set',
        'audit.reports.size=5Gi',
        '--set',
        'audit.reports.storageClassName=fast',
      ]);
      assert.deepEqual(find(sized, 'PersistentVolumeClaim', 'tailor-audit-reports')['spec'], {
        accessModes: ['ReadWriteOnce'],
        storageClassName: 'fast',
        resources: { requests: { storage: '5Gi' } },
      });
    });

    test('Prometheus auth: headers, a bearer token file and a CA from Secrets reach the recommender, the updater and the audit, not the webhook', async () => {
      const objects = await helmTemplate(helm, CHART, ['--values', valuesFile('prometheus-token.yaml', PROMETHEUS_TOKEN)]);
      assert.equal((find(objects, 'ConfigMap', 'tailor-config')['data'] as Json)['TAILOR_PROMETHEUS_HEADERS'], 'X-Scope-OrgID: team-a, X-Team: shop');
      for (const name of ['tailor-recommender', 'tailor-updater']) {
        const ps = podSpec(find(objects, 'Deployment', name)) as PodSpec & { volumes: Json[]; containers: Array<Container & { volumeMounts: Json[] }> };
        const c = ps.containers[0]!;
        assert.deepEqual(
          c.env.filter((e) => e.name.includes('PROMETHEUS')),
          [
            { name: 'TAILOR_PROMETHEUS_BEARER_TOKEN_FILE', value: '/etc/tailor/prometheus-token/token' },
            { name: 'TAILOR_PROMETHEUS_CA_FILE', value: '/etc/tailor/prometheus-ca/ca.crt' },
          ],
          name,
        );
        assert.deepEqual(c.env.at(-1), { name: 'EXTRA', value: 'last' }, 'extraEnv stays last');
        assert.deepEqual(c.volumeMounts, [
          { name: 'tmp', mountPath: '/tmp' },
          { name: 'prometheus-token', mountPath: '/etc/tailor/prometheus-token', readOnly: true },
          { name: 'prometheus-ca', mountPath: '/etc/tailor/prometheus-ca', readOnly: true },
        ]);
        assert.deepEqual(ps.volumes, [
          { name: 'tmp', emptyDir: { sizeLimit: '64Mi' } },
          { name: 'prometheus-token', secret: { secretName: 'prom-token', items: [{ key: 'jwt', path: 'token' }] } },
          { name: 'prometheus-ca', secret: { secretName: 'prom-tls', items: [{ key: 'root.pem', path: 'ca.crt' }] } },
        ]);
      }
      const admission = podSpec(find(objects, 'Deployment', 'tailor-admission')) as PodSpec & { volumes: Json[] };
      assert.deepEqual(admission.volumes, [{ name: 'tmp', emptyDir: { sizeLimit: '64Mi' } }]);
      assert.ok(!admission.containers[0]!.env.some((e) => e.name.includes('PROMETHEUS')));

      const audit = auditPod(objects);
      assert.deepEqual(audit.containers[0]!.args.slice(6), [
        '--header=X-Scope-OrgID: team-a',
        '--header=X-Team: shop',
        '--bearer-token-file=/etc/tailor/prometheus-token/token',
        '--ca-file=/etc/tailor/prometheus-ca/ca.crt',
      ]);
      assert.deepEqual(audit.volumes.slice(2), [
        { name: 'prometheus-token', secret: { secretName: 'prom-token', items: [{ key: 'jwt', path: 'token' }] } },
        { name: 'prometheus-ca', secret: { secretName: 'prom-tls', items: [{ key: 'root.pem', path: 'ca.crt' }] } },
      ]);
      assert.deepEqual(audit.containers[0]!.volumeMounts.slice(2), [
        { name: 'prometheus-token', mountPath: '/etc/tailor/prometheus-token', readOnly: true },
        { name: 'prometheus-ca', mountPath: '/etc/tailor/prometheus-ca', readOnly: true },
      ]);
      await assertAuditFlagsExist(audit.containers[0]!.args);
      assertRunConfigAccepted(objects);
    });

    test('Prometheus auth: basic auth from a Secret (user and password through $(...) references) and a CA from a ConfigMap', async () => {
      const objects = await helmTemplate(helm, CHART, ['--values', valuesFile('prometheus-basic.yaml', PROMETHEUS_BASIC)]);
      const secretEnv = [
        { name: 'PROMETHEUS_BASIC_AUTH_USERNAME', valueFrom: { secretKeyRef: { name: 'prom-auth', key: 'user' } } },
        { name: 'PROMETHEUS_BASIC_AUTH_PASSWORD', valueFrom: { secretKeyRef: { name: 'prom-auth', key: 'pass' } } },
      ];
      for (const name of ['tailor-recommender', 'tailor-updater']) {
        const ps = podSpec(find(objects, 'Deployment', name)) as PodSpec & { volumes: Json[] };
        assert.deepEqual(
          ps.containers[0]!.env.filter((e) => e.name.includes('PROMETHEUS')),
          [
            ...secretEnv,
            { name: 'TAILOR_PROMETHEUS_BASIC_AUTH', value: '$(PROMETHEUS_BASIC_AUTH_USERNAME):$(PROMETHEUS_BASIC_AUTH_PASSWORD)' },
            { name: 'TAILOR_PROMETHEUS_CA_FILE', value: '/etc/tailor/prometheus-ca/ca.crt' },
          ],
          name,
        );
        assert.deepEqual(ps.volumes.at(-1), { name: 'prometheus-ca', configMap: { name: 'prom-ca', items: [{ key: 'ca.crt', path: 'ca.crt' }] } });
      }
      const audit = auditPod(objects);
      assert.deepEqual(audit.containers[0]!.args.slice(6), [
        '--basic-auth=$(PROMETHEUS_BASIC_AUTH_USERNAME):$(PROMETHEUS_BASIC_AUTH_PASSWORD)',
        '--ca-file=/etc/tailor/prometheus-ca/ca.crt',
      ]);
      assert.deepEqual(audit.containers[0]!.env.slice(1), secretEnv);
      await assertAuditFlagsExist(audit.containers[0]!.args);
      assertRunConfigAccepted(objects);
    });

    test('Prometheus auth refusals: two kinds of credentials, two CA sources, a comma in a header, headers given twice', async () => {
      for (const [sets, message] of [
        [['prometheus.bearerToken.secretName=a', 'prometheus.basicAuth.secretName=b'], /at most one kind of Prometheus credentials/],
        [['prometheus.ca.secretName=a', 'prometheus.ca.configMapName=b'], /prometheus\.ca: give secretName or configMapName, not both/],
        [['prometheus.headers.X-A=a\\,b'], /prometheus\.headers\.X-A: .*no comma/],
        [['prometheus.headers.X-A=a', 'config.TAILOR_PROMETHEUS_HEADERS=X-A: a'], /give the headers once/],
      ] as const) {
        const result = await runHelm(helm, ['template', 'tailor', CHART, ...sets.flatMap((x) => ['--set', x])]);
        assert.notEqual(result.code, 0, sets.join(' '));
        assert.match(result.stderr, message);
      }
    });

    test("admission.tls.existingSecret: the webhook serves the Secret's certificate from files and publishes its ca.crt; no self-signed CA Secret or its Role", async () => {
      const objects = await helmTemplate(helm, CHART, ['--set', 'admission.tls.existingSecret=webhook-cert'], 'autoscaling');
      const ps = podSpec(find(objects, 'Deployment', 'tailor-admission')) as PodSpec & {
        volumes: Json[];
        containers: Array<Container & { volumeMounts: Json[] }>;
      };
      const c = ps.containers[0]!;
      assert.deepEqual(c.env.slice(3), [
        { name: 'TAILOR_ADMISSION_CERT_FILE', value: '/etc/tailor/webhook-tls/tls.crt' },
        { name: 'TAILOR_ADMISSION_KEY_FILE', value: '/etc/tailor/webhook-tls/tls.key' },
        { name: 'TAILOR_ADMISSION_CA_FILE', value: '/etc/tailor/webhook-tls/ca.crt' },
      ]);
      assert.deepEqual(c.volumeMounts.at(-1), { name: 'webhook-tls', mountPath: '/etc/tailor/webhook-tls', readOnly: true });
      assert.deepEqual(ps.volumes.at(-1), { name: 'webhook-tls', secret: { secretName: 'webhook-cert' } });
      assert.ok(!objects.some((o) => o.metadata.name === 'tailor-admission-ca'), 'no Role/RoleBinding for the self-signed CA Secret');
      // It still writes the caBundle (from ca.crt) into its configurations, so it keeps its rights on them, and nothing injects it.
      assert.ok(JSON.stringify(find(objects, 'ClusterRole', 'tailor-admission')['rules']).includes('mutatingwebhookconfigurations'));
      assert.equal((find(objects, 'MutatingWebhookConfiguration', 'tailor').metadata as Json)['annotations'], undefined);
      assert.ok(!objects.some((o) => o.apiVersion.startsWith('cert-manager.io/')));
      assertRunConfigAccepted(objects);
    });

    test('admission.tls.certManager: an own CA and the serving Certificate, cainjector annotations, the webhook registers nothing and may not write its configurations', async () => {
      const objects = await helmTemplate(helm, CHART, ['--set', 'admission.tls.certManager.enabled=true'], 'autoscaling');
      assert.deepEqual(keys(objects.filter((o) => o.apiVersion === 'cert-manager.io/v1')), [
        'Certificate/tailor-webhook',
        'Certificate/tailor-webhook-ca',
        'Issuer/tailor-webhook-ca',
        'Issuer/tailor-webhook-selfsigned',
      ]);
      assert.deepEqual(find(objects, 'Issuer', 'tailor-webhook-selfsigned')['spec'], { selfSigned: {} });
      const ca = find(objects, 'Certificate', 'tailor-webhook-ca')['spec'] as Json;
      assert.equal(ca['isCA'], true);
      assert.deepEqual(ca['issuerRef'], { kind: 'Issuer', name: 'tailor-webhook-selfsigned' });
      assert.deepEqual(find(objects, 'Issuer', 'tailor-webhook-ca')['spec'], { ca: { secretName: ca['secretName'] } });
      const serving = find(objects, 'Certificate', 'tailor-webhook');
      assert.equal(serving.metadata.namespace, 'autoscaling');
      assert.deepEqual(serving['spec'], {
        secretName: 'tailor-webhook-tls',
        duration: '2160h',
        renewBefore: '360h',
        // The names the webhook's own certificate carries (serviceDnsNames): the API server calls tailor-webhook.autoscaling.svc.
        dnsNames: ['tailor-webhook', 'tailor-webhook.autoscaling', 'tailor-webhook.autoscaling.svc', 'tailor-webhook.autoscaling.svc.cluster.local'],
        issuerRef: { kind: 'Issuer', name: 'tailor-webhook-ca' },
      });
      for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
        assert.deepEqual(
          (find(objects, kind, 'tailor').metadata as Json)['annotations'],
          { 'cert-manager.io/inject-ca-from': 'autoscaling/tailor-webhook' },
          kind,
        );
        assert.equal(((find(objects, kind, 'tailor')['webhooks'] as Json[])[0]!['clientConfig'] as Json)['caBundle'], undefined);
      }
      const ps = podSpec(find(objects, 'Deployment', 'tailor-admission')) as PodSpec & { volumes: Json[] };
      assert.deepEqual(ps.containers[0]!.env.slice(3), [
        { name: 'TAILOR_ADMISSION_CERT_FILE', value: '/etc/tailor/webhook-tls/tls.crt' },
        { name: 'TAILOR_ADMISSION_KEY_FILE', value: '/etc/tailor/webhook-tls/tls.key' },
        { name: 'TAILOR_ADMISSION_REGISTER_WEBHOOKS', value: 'false' },
      ]);
      assert.deepEqual(ps.volumes.at(-1), { name: 'webhook-tls', secret: { secretName: 'tailor-webhook-tls' } });
      assert.ok(
        !JSON.stringify(find(objects, 'ClusterRole', 'tailor-admission')['rules']).includes('admissionregistration'),
        'no rights on the configurations',
      );
      assert.ok(!objects.some((o) => o.metadata.name === 'tailor-admission-ca'));
      assertRunConfigAccepted(objects);
      // Without certManager the webhook would be refused this: registering needs the CA file (tailor run's own rule).
      assert.throws(() => resolveRunConfig({}, { TAILOR_ADMISSION_CERT_FILE: 'a', TAILOR_ADMISSION_KEY_FILE: 'b' }), /needs the CA file/);
    });

    test("admission.tls.certManager with an issuer of yours, and with upstream's webhook names", async () => {
      const objects = await helmTemplate(helm, CHART, [
        '--set',
        'admission.tls.certManager.enabled=true',
        '--set',
        'admission.tls.certManager.issuerRef.kind=ClusterIssuer',
        '--set',
        'admission.tls.certManager.issuerRef.name=corp-ca',
        '--set',
        'admission.tls.certManager.duration=720h',
        '--set',
        'admission.tls.certManager.renewBefore=240h',
        '--set',
        'upstreamWebhookNames=true',
      ]);
      assert.deepEqual(keys(objects.filter((o) => o.apiVersion === 'cert-manager.io/v1')), ['Certificate/tailor-webhook']);
      const spec = find(objects, 'Certificate', 'tailor-webhook')['spec'] as Json;
      assert.deepEqual(spec['issuerRef'], { kind: 'ClusterIssuer', name: 'corp-ca' });
      assert.equal(spec['duration'], '720h');
      assert.equal(spec['renewBefore'], '240h');
      assert.deepEqual((find(objects, 'MutatingWebhookConfiguration', 'vpa-webhook-config').metadata as Json)['annotations'], {
        'cert-manager.io/inject-ca-from': 'tailor-system/tailor-webhook',
      });
      assertRunConfigAccepted(objects);
      const both = await runHelm(helm, [
        'template',
        'tailor',
        CHART,
        '--set',
        'admission.tls.certManager.enabled=true',
        '--set',
        'admission.tls.existingSecret=x',
      ]);
      assert.notEqual(both.code, 0);
      assert.match(both.stderr, /admission\.tls: give existingSecret or certManager\.enabled, not both/);
      const noAdmission = await helmTemplate(helm, CHART, ['--set', 'admission.tls.certManager.enabled=true', '--set', 'admission.enabled=false']);
      assert.ok(!noAdmission.some((o) => o.apiVersion === 'cert-manager.io/v1'), 'no certificate without the webhook');
    });

    test('recommendationStrategy reaches the recommender and the audit; deploymentStrategy each Deployment', async () => {
      const objects = await helmTemplate(helm, CHART, ['--values', valuesFile('strategy.yaml', STRATEGY)]);
      assert.equal((find(objects, 'ConfigMap', 'tailor-config')['data'] as Json)['TAILOR_RECOMMENDER_STRATEGY'], 'vpa');
      const audit = auditPod(objects).containers[0]!;
      assert.ok(audit.args.includes('--strategy=vpa'), audit.args.join(' '));
      await assertAuditFlagsExist(audit.args);
      assertRunConfigAccepted(objects);
      const strategy = (name: string) => (find(objects, 'Deployment', name)['spec'] as Json)['strategy'];
      assert.deepEqual(strategy('tailor-recommender'), { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } });
      assert.equal(strategy('tailor-updater'), undefined, 'null leaves it out');
      assert.deepEqual(strategy('tailor-admission'), { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0 } });
      for (const [sets, message] of [
        [['recommendationStrategy=fast'], /recommendationStrategy: fast is none of vpa, tailor, tailor-low-churn/],
        [['recommendationStrategy=vpa', 'config.TAILOR_RECOMMENDER_STRATEGY=tailor'], /give the strategy once/],
      ] as const) {
        const result = await runHelm(helm, ['template', 'tailor', CHART, ...sets.flatMap((x) => ['--set', x])]);
        assert.notEqual(result.code, 0, sets.join(' '));
        assert.match(result.stderr, message);
      }
    });

    test('values that are not the defaults take effect (release namespace autoscaling)', async () => {
      const defaults = await helmTemplate(helm, CHART);
      const objects = await helmTemplate(helm, CHART, ['--values', valuesFile('non-default.yaml', NON_DEFAULT)], 'autoscaling', 'tailor-x');
      const namespaced = objects.filter(
        (o) =>
          ![
            'Namespace',
            'CustomResourceDefinition',
            'ClusterRole',
            'ClusterRoleBinding',
            'MutatingWebhookConfiguration',
            'ValidatingWebhookConfiguration',
          ].includes(o.kind),
      );
      for (const o of namespaced) assert.equal(o.metadata.namespace, 'autoscaling', `${o.kind}/${o.metadata.name}`);
      const ns = find(objects, 'Namespace', 'autoscaling');
      assert.equal(ns.metadata.labels?.['pod-security.kubernetes.io/enforce'], 'restricted');
      assert.equal(ns.metadata.labels?.['app.kubernetes.io/instance'], 'tailor-x');

      // Components: the updater is off, and nothing of it is rendered; no NetworkPolicy.
      assert.deepEqual(
        keys(objects).filter((k) => /updater/.test(k)),
        [],
      );
      assert.ok(!objects.some((o) => o.kind === 'NetworkPolicy'));
      assert.deepEqual(find(objects, 'ClusterRoleBinding', 'tailor-target-reader')['subjects'], [
        { kind: 'ServiceAccount', name: 'my-recommender', namespace: 'autoscaling' },
      ]);

      // Image, pull policy and secrets on every Deployment.
      const deployments = objects.filter((o) => o.kind === 'Deployment');
      assert.deepEqual(keys(deployments), ['Deployment/tailor-admission', 'Deployment/tailor-recommender']);
      for (const d of deployments) {
        const c = podSpec(d).containers[0]!;
        assert.equal(c.image, 'registry.example.com/tailor:9.9.9');
        assert.equal(c.imagePullPolicy, 'Always');
        assert.deepEqual(podSpec(d).imagePullSecrets, [{ name: 'regcred' }]);
      }

      // The ConfigMap: Prometheus URL, log level, extra settings; its checksum moved with it.
      assert.deepEqual(find(objects, 'ConfigMap', 'tailor-config')['data'], {
        TAILOR_PROMETHEUS_URL: 'http://thanos-query.monitoring.svc:10902',
        TAILOR_LOG_LEVEL: 'debug',
        TAILOR_HISTORY: '14d',
        TAILOR_HISTORY_STEP: '30',
      });
      const recommender = find(objects, 'Deployment', 'tailor-recommender');
      assert.notEqual(podAnnotations(recommender)[CONFIG_CHECKSUM], podAnnotations(find(defaults, 'Deployment', 'tailor-recommender'))[CONFIG_CHECKSUM]);

      // The recommender: replicas, resources, args and env added after its own, its own scheduling, its service account.
      assert.equal((recommender['spec'] as Json)['replicas'], 2);
      const rc = podSpec(recommender).containers[0]!;
      assert.deepEqual(rc.args, ['run', '--components', 'recommender', '--interval=10s', '--checkpoint-interval=10s']);
      assert.deepEqual(
        rc.env.map((e) => e.name),
        ['TAILOR_LEASE_NAMESPACE', 'NODE_OPTIONS', 'TAILOR_UNHEALTHY_AFTER_INTERVALS', 'EXTRA'],
      );
      assert.equal(rc.env.find((e) => e.name === 'NODE_OPTIONS')?.value, '--max-old-space-size=1536');
      assert.deepEqual(rc.resources, { requests: { cpu: '200m', memory: '1Gi' }, limits: { memory: '2Gi' } });
      assert.deepEqual(podSpec(recommender).nodeSelector, { pool: 'infra' }, 'its own nodeSelector replaces the global one');
      assert.deepEqual(
        podSpec(recommender).tolerations,
        [{ key: 'dedicated', operator: 'Equal', value: 'tailor', effect: 'NoSchedule' }],
        'the global tolerations',
      );
      assert.equal(podSpec(recommender).serviceAccountName, 'my-recommender');
      assert.ok(objects.some((o) => o.kind === 'ServiceAccount' && o.metadata.name === 'my-recommender'));
      assert.deepEqual(find(objects, 'ClusterRoleBinding', 'tailor-recommender')['subjects'], [
        { kind: 'ServiceAccount', name: 'my-recommender', namespace: 'autoscaling' },
      ]);

      // The admission webhook: replicas, PDB, affinity, the global nodeSelector, an existing service account.
      const admission = find(objects, 'Deployment', 'tailor-admission');
      assert.equal((admission['spec'] as Json)['replicas'], 3);
      assert.equal((find(objects, 'PodDisruptionBudget', 'tailor-admission')['spec'] as Json)['minAvailable'], 2);
      assert.deepEqual(podSpec(admission).nodeSelector, { 'kubernetes.io/os': 'linux' });
      assert.ok((podSpec(admission).affinity as Json | undefined)?.['nodeAffinity'], 'its affinity');
      assert.equal(podSpec(admission).serviceAccountName, 'existing-admission');
      assert.ok(!objects.some((o) => o.kind === 'ServiceAccount' && o.metadata.name === 'existing-admission'), 'create: false renders no service account');
      for (const name of ['tailor-admission-ca', 'tailor-admission-status']) {
        assert.deepEqual(find(objects, 'RoleBinding', name)['subjects'], [{ kind: 'ServiceAccount', name: 'existing-admission', namespace: 'autoscaling' }]);
      }
      // The webhooks call the Service in the release namespace and never send its own pods.
      const webhook = (find(objects, 'MutatingWebhookConfiguration', 'tailor')['webhooks'] as Json[])[0]!;
      assert.deepEqual((webhook['clientConfig'] as Json)['service'], { namespace: 'autoscaling', name: 'tailor-webhook', port: 443, path: '/mutate-pods' });
      assert.deepEqual(webhook['namespaceSelector'], {
        matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', 'autoscaling'] }],
      });
    });

    test('switches that leave objects out: namespace.create=false, no PDB, no admission (no webhook configuration, no TAILOR_ADMISSION_WEBHOOK_LAYOUT)', async () => {
      const objects = await helmTemplate(helm, CHART, ['--set', 'namespace.create=false', '--set', 'admission.podDisruptionBudgetMinAvailable=null']);
      assert.ok(!objects.some((o) => o.kind === 'Namespace' || o.kind === 'PodDisruptionBudget'));
      const noAdmission = await helmTemplate(helm, CHART, ['--set', 'admission.enabled=false', '--set', 'upstreamWebhookNames=true']);
      // The updater keeps reading the webhook's status Lease (another webhook may keep it): only its Role stays.
      assert.deepEqual(
        keys(noAdmission).filter((k) => /admission|webhook/i.test(k)),
        ['Role/tailor-updater-admission-status', 'RoleBinding/tailor-updater-admission-status'],
      );
      assert.equal((find(noAdmission, 'ConfigMap', 'tailor-config')['data'] as Json)['TAILOR_ADMISSION_WEBHOOK_LAYOUT'], undefined);
      const noLoops = await helmTemplate(helm, CHART, ['--set', 'recommender.enabled=false', '--set', 'updater.enabled=false']);
      assert.ok(!noLoops.some((o) => o.metadata.name === 'tailor-target-reader'), 'no target reader without the loops');
    });

    test('refusals: a config key that is not a TAILOR_* variable, a server older than 1.32', async () => {
      const bad = await runHelm(helm, ['template', 'tailor', CHART, '--set', 'config.PROMETHEUS=x']);
      assert.notEqual(bad.code, 0);
      assert.match(bad.stderr, /config\.PROMETHEUS: the keys of config are TAILOR_\* variables/);
      const old = await runHelm(helm, ['template', 'tailor', CHART, '--kube-version', '1.31.0']);
      assert.notEqual(old.code, 0);
      assert.match(old.stderr, /kubeVersion/i);
    });
  });
}

/** Headers, a bearer token and a CA from Secrets, with the audit on (its pod takes them too). */
const PROMETHEUS_TOKEN = `
prometheus:
  url: https://prometheus.example.com
  headers: {X-Scope-OrgID: team-a, X-Team: shop}
  bearerToken: {secretName: prom-token, key: jwt}
  ca: {secretName: prom-tls, key: root.pem}
recommender: {extraEnv: [{name: EXTRA, value: last}]}
updater: {extraEnv: [{name: EXTRA, value: last}]}
audit: {enabled: true}
`;

/** Basic auth from a Secret and a CA from a ConfigMap, with the audit on. */
const PROMETHEUS_BASIC = `
prometheus:
  url: https://prometheus.example.com
  basicAuth: {secretName: prom-auth, usernameKey: user, passwordKey: pass}
  ca: {configMapName: prom-ca}
audit: {enabled: true}
`;

/** The recommendation strategy and the Deployments' strategies, with the audit on. */
const STRATEGY = `
recommendationStrategy: vpa
recommender: {deploymentStrategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}}
updater: {deploymentStrategy: null}
admission: {deploymentStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 0}}}
audit: {enabled: true}
`;

/** Every monitoring value changed (the release namespace is autoscaling). */
const MONITORING = `
monitoring:
  enabled: true
  interval: 15s
  additionalLabels: {release: kube-prometheus-stack}
  podMonitor: {enabled: true}
  kubeStateMetrics: {serviceAccount: {name: kube-state-metrics, namespace: monitoring}}
  grafanaDashboard: {namespace: grafana, labels: {grafana_dashboard: null, team-dashboards: "yes"}}
`;

/** Every audit value changed (the release namespace is autoscaling). */
const AUDIT = `
image: {repository: registry.example.com/tailor, tag: "9.9.9"}
prometheus: {url: "http://thanos-query.monitoring.svc:10902"}
audit:
  enabled: true
  schedule: "30 2 * * 1"
  timeZone: ""
  keepReports: null
  extraArgs: [--namespace=shop, --cpu-hour-price=0.0316]
  extraEnv: [{name: TZ, value: Europe/Paris}]
  resources: {requests: {cpu: 200m, memory: 1Gi}, limits: {memory: 2Gi}}
  nodeOptions: --max-old-space-size=1536
  reports: {existingClaim: audit-reports}
  nodeSelector: {pool: batch}
  serviceAccount: {create: false, name: auditor}
`;

/** Every kind of value changed (the release namespace is autoscaling, the release tailor-x). */
const NON_DEFAULT = `
image: {repository: registry.example.com/tailor, tag: "9.9.9", pullPolicy: Always}
imagePullSecrets: [{name: regcred}]
prometheus: {url: "http://thanos-query.monitoring.svc:10902"}
logLevel: debug
config: {TAILOR_HISTORY: 14d, TAILOR_HISTORY_STEP: 30}
networkPolicy: {enabled: false}
nodeSelector: {kubernetes.io/os: linux}
tolerations: [{key: dedicated, operator: Equal, value: tailor, effect: NoSchedule}]
recommender:
  replicas: 2
  resources: {requests: {cpu: 200m, memory: 1Gi}, limits: {memory: 2Gi}}
  nodeOptions: --max-old-space-size=1536
  extraArgs: [--interval=10s, --checkpoint-interval=10s]
  extraEnv: [{name: EXTRA, value: "yes"}]
  nodeSelector: {pool: infra}
  serviceAccount: {name: my-recommender}
updater: {enabled: false}
admission:
  replicas: 3
  podDisruptionBudgetMinAvailable: 2
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms: [{matchExpressions: [{key: kubernetes.io/arch, operator: In, values: [amd64]}]}]
  serviceAccount: {create: false, name: existing-admission}
`;
