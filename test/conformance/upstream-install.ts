/**
 * The conformance lane's upstream mode (TAILOR_CONFORMANCE_AUTOSCALER=upstream): upstream VPA v1.8.1
 * itself, run the way upstream's CI runs its suite, so its table on this cluster can stand beside
 * Tailor's. Per suite, in kube-system: its CRDs and RBAC and the Deployments of that suite's
 * components from its own deploy/ manifests (upstream-manifests.ts), on images the lane made from
 * binaries it built (build-upstream.sh), and for the admission controller the two Secrets of its
 * gencerts.sh (upstream-certs.ts). Its recommender reads metrics.k8s.io: metrics-server runs on this
 * machine for all suites (lane-metrics-server.ts).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { laneKubectl, waitFor } from '../real-cluster/lane-cluster.ts';
import { startLaneMetricsServer, type LaneMetricsServer } from '../real-cluster/lane-metrics-server.ts';
import { AUTOSCALER_NAMES, type ConformanceAutoscaler } from './autoscaler.ts';
import type { TailorComponent } from './suites.ts';
import { makeWebhookCerts, webhookSecrets } from './upstream-certs.ts';
import { isDeploymentFile, UPSTREAM_DEPLOYMENTS, UPSTREAM_NAMESPACE, upstreamDeployment, upstreamFiles } from './upstream-manifests.ts';

/** What the upstream mode needs from run.sh. */
export interface UpstreamOptions {
  /** deploy/ of the VPA module in the Go module cache. */
  readonly deployDir: string;
  /** The images imported into the nodes (the Deployments must name only these). */
  readonly images: readonly string[];
  /** metrics-server's binary (build-upstream-vpa.sh). */
  readonly metricsServer: string;
  /** The lane's state directory. */
  readonly state: string;
}

/** The MutatingWebhookConfiguration upstream's admission controller registers itself (delete-webhook.sh removes it). */
const WEBHOOK_CONFIGURATION = 'vpa-webhook-config';
/** The admission controller's status Lease, which it keeps in its namespace. */
const STATUS_LEASE = 'vpa-admission-controller';
const VPA_CRD = 'verticalpodautoscalers.autoscaling.k8s.io';

/** Upstream VPA as the lane's `ConformanceAutoscaler`. */
export function upstreamAutoscaler(kc: k8s.KubeConfig, options: UpstreamOptions): ConformanceAutoscaler {
  const apps = kc.makeApiClient(k8s.AppsV1Api);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const ext = kc.makeApiClient(k8s.ApiextensionsV1Api);
  const admission = kc.makeApiClient(k8s.AdmissionregistrationV1Api);
  const coordination = kc.makeApiClient(k8s.CoordinationV1Api);
  let metricsServer: LaneMetricsServer | undefined;
  let metricsServerDir: string | undefined;
  let dir: string | undefined;
  let installed: readonly TailorComponent[] = [];

  /** deploy/'s files for the suite as one manifest, the Deployments set to the lane's images. */
  function manifest(components: readonly TailorComponent[]): string {
    return upstreamFiles(components)
      .map((file) => {
        const text = readFileSync(join(options.deployDir, file), 'utf8');
        return isDeploymentFile(file) ? k8s.dumpYaml(upstreamDeployment(text, options.images)) : text;
      })
      .join('\n---\n');
  }

  return {
    name: AUTOSCALER_NAMES.upstream,
    namespace: UPSTREAM_NAMESPACE,
    logName: 'upstream',

    async start() {
      // Another autoscaler's CRDs (a Tailor install left behind) would be adopted silently.
      const crd = await ext.readCustomResourceDefinition({ name: VPA_CRD }).then(
        () => true,
        () => false,
      );
      if (crd) throw new Error(`the CRD ${VPA_CRD} is already installed: another VPA is on the cluster; uninstall it first`);
      metricsServerDir = mkdtempSync(join(tmpdir(), 'tailor-conformance-metrics-server-'));
      metricsServer = await startLaneMetricsServer(kc, { binary: options.metricsServer, state: options.state, workDir: metricsServerDir });
    },

    async install(_suite, components) {
      dir = mkdtempSync(join(tmpdir(), 'tailor-conformance-upstream-'));
      installed = components;
      if (components.includes('admission')) {
        makeWebhookCerts(dir);
        for (const body of webhookSecrets(dir, UPSTREAM_NAMESPACE)) {
          // A run that was stopped may have left them: gencerts.sh would fail on them too.
          await core.deleteNamespacedSecret({ namespace: UPSTREAM_NAMESPACE, name: body.metadata!.name! }).catch(() => undefined);
          await core.createNamespacedSecret({ namespace: UPSTREAM_NAMESPACE, body });
        }
      }
      writeFileSync(join(dir, 'upstream.yaml'), manifest(components));
      laneKubectl('apply', '-f', join(dir, 'upstream.yaml'));
      let last = '';
      await waitFor(
        `upstream's ${components.map((c) => UPSTREAM_DEPLOYMENTS[c]).join(', ')} Ready`,
        300_000,
        async () => {
          const states = await Promise.all(
            components.map((c) => apps.readNamespacedDeployment({ namespace: UPSTREAM_NAMESPACE, name: UPSTREAM_DEPLOYMENTS[c] })),
          );
          last = states.map((d) => `${d.metadata?.name} ${d.status?.readyReplicas ?? 0}/${d.spec?.replicas}`).join(', ');
          return states.every((d) => (d.status?.readyReplicas ?? 0) === d.spec?.replicas && (d.status?.updatedReplicas ?? 0) === d.spec?.replicas)
            ? true
            : undefined;
        },
        () => last,
      );
      if (components.includes('admission')) {
        await waitFor(`the admission controller's ${WEBHOOK_CONFIGURATION}`, 120_000, () =>
          admission.readMutatingWebhookConfiguration({ name: WEBHOOK_CONFIGURATION }).then(
            () => true,
            () => undefined,
          ),
        );
      }
    },

    logs() {
      return installed
        .map((c) => {
          try {
            return laneKubectl('logs', '-n', UPSTREAM_NAMESPACE, `deployment/${UPSTREAM_DEPLOYMENTS[c]}`, '--all-containers', '--prefix', '--tail=-1');
          } catch (error) {
            return `${UPSTREAM_DEPLOYMENTS[c]}: no logs (${(error as Error).message.split('\n')[0]})\n`;
          }
        })
        .join('');
    },

    async uninstall() {
      if (dir) laneKubectl('delete', '-f', join(dir, 'upstream.yaml'), '--ignore-not-found', '--wait=false');
      // What the components made themselves, and gencerts.sh's Secrets (rmcerts.sh, delete-webhook.sh).
      const gone = () => undefined;
      await admission.deleteMutatingWebhookConfiguration({ name: WEBHOOK_CONFIGURATION }).catch(gone);
      await coordination.deleteNamespacedLease({ namespace: UPSTREAM_NAMESPACE, name: STATUS_LEASE }).catch(gone);
      for (const name of ['vpa-tls-certs', 'vpa-e2e-certs']) await core.deleteNamespacedSecret({ namespace: UPSTREAM_NAMESPACE, name }).catch(gone);
      await waitFor("upstream's pods gone", 300_000, async () => {
        const pods = await core.listNamespacedPod({ namespace: UPSTREAM_NAMESPACE });
        const left = pods.items.filter((p) => Object.values(UPSTREAM_DEPLOYMENTS).some((d) => p.metadata?.name?.startsWith(`${d}-`)));
        return left.length === 0 ? true : undefined;
      });
      await waitFor('the VPA CRDs deleted', 120_000, async () => {
        const crds = await ext.listCustomResourceDefinition();
        return crds.items.some((c) => c.spec.group === 'autoscaling.k8s.io') ? undefined : true;
      });
      if (dir) rmSync(dir, { recursive: true, force: true });
      dir = undefined;
      installed = [];
    },

    async stop() {
      await metricsServer?.stop();
      metricsServer = undefined;
      if (metricsServerDir) rmSync(metricsServerDir, { recursive: true, force: true });
    },
  };
}
