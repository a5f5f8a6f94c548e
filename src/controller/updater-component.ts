/**
 * `tailor run --components updater`: the updater as a loop component of the controller runtime
 * (leader election, schedule, health and /metrics come from there, docs/controller.md). On
 * gaining leadership it starts the watch caches and reads the server version; each cycle runs one
 * {@link UpdaterLoop} at the tick's time; on losing it, the caches stop. Nothing else is kept, so a
 * new leader continues where the old one stopped (timers are read from the objects).
 */
import type * as k8s from '@kubernetes/client-node';
import { versionApi } from '../kube/kube-apis.ts';
import type { ComponentContext, LoopComponent } from './component.ts';
import { namespaceSelected, watchNamespaces } from './vpa-selection.ts';
import { prometheusConnection, prometheusQueryConfig } from '../metrics/prometheus-options.ts';
import { runUpdaterOptions } from '../updater/updater-options.ts';
import { KubeApiError } from '../kube/errors.ts';
import type { MemoryUsageSource } from '../metrics/memory-usage-source.ts';
import { PrometheusMetricsSource } from '../metrics/prometheus-source.ts';
import { PrometheusQueryClient } from '../metrics/query-client.ts';
import type { UpdaterOptions } from '../policy/update-thresholds.ts';
import { inPlaceUnavailableMessage, parseServerVersion, serverCapabilities, type ServerCapabilities } from '../updater/server-capabilities.ts';
import { kubeUpdaterApi } from '../updater/updater-api.ts';
import { UpdaterCaches } from '../updater/updater-caches.ts';
import { UpdaterLoop } from '../updater/updater-loop.ts';
import { UpdaterMetrics } from '../updater/updater-metrics.ts';
import { kubeAdmissionStatus, type AdmissionStatusSource } from '../updater/admission-status.ts';
import { admissionStatusNamespace } from '../admission/admission-options.ts';

/** Reads `/version` and derives what the server can do for resizes. */
export async function detectCapabilities(kubeConfig: k8s.KubeConfig, inPlaceFeatureGate: boolean): Promise<ServerCapabilities> {
  let info: k8s.VersionInfo;
  try {
    info = await versionApi(kubeConfig).getCode();
  } catch (err) {
    throw new KubeApiError('read the server version', err);
  }
  const version = parseServerVersion(info);
  if (!version) throw new Error(`unreadable server version: major ${info.major}, minor ${info.minor}`);
  return serverCapabilities(version, inPlaceFeatureGate);
}

/** What tests may replace or tune. */
export interface UpdaterDeps {
  /** Recent memory usage (default: Prometheus at --prometheus-url, none without it). */
  usage?: MemoryUsageSource;
  /** Decision thresholds besides the configured ones (e.g. a shorter pressure window in tests). */
  options?: Partial<UpdaterOptions>;
  /** The admission webhook's status (default: the Lease of the configuration, unless --no-use-admission-status). */
  admissionStatus?: AdmissionStatusSource;
}

/** The usage source of the configuration: Prometheus when --prometheus-url is set. */
function configuredUsage(ctx: ComponentContext): MemoryUsageSource | undefined {
  const { config, logger } = ctx;
  if (config.prometheusUrl === undefined) return undefined;
  return new PrometheusMetricsSource(
    new PrometheusQueryClient(prometheusConnection(config), logger, ctx.metrics.prometheus.observer()),
    prometheusQueryConfig(config),
    logger,
  );
}

/** The updater component's factory. */
export function createUpdaterComponent(ctx: ComponentContext, deps: UpdaterDeps = {}): LoopComponent {
  const { config, logger, kubeConfig } = ctx;
  const metrics = new UpdaterMetrics(ctx.metrics.registry);
  const api = kubeUpdaterApi(kubeConfig);
  const options = runUpdaterOptions(config, deps.options);
  const usage = deps.usage ?? configuredUsage(ctx);
  const admissionStatus =
    deps.admissionStatus ??
    (config.useAdmissionStatus
      ? kubeAdmissionStatus(kubeConfig, admissionStatusNamespace(config), config.admissionStatusLeaseName, config.admissionStatusTimeout)
      : undefined);
  let caches: UpdaterCaches | undefined;
  let loop: UpdaterLoop | undefined;
  return {
    kind: 'loop',
    name: 'updater',
    async activate() {
      const capabilities = await detectCapabilities(kubeConfig, config.inPlaceFeatureGate);
      caches = new UpdaterCaches({ kubeConfig, logger, namespaces: watchNamespaces(config), selected: (ns) => namespaceSelected(ns, config) });
      await caches.start();
      const memory = {
        pressureWindowMs: options.memoryPressureWindowMs,
        pressureRatio: options.memoryPressureRatio,
        peakWindowMs: options.memoryPeakWindowMs,
        peakMarginRatio: options.memoryPeakMarginRatio,
        peakMarginBytes: options.memoryPeakMarginBytes,
      };
      logger.info(
        {
          version: capabilities.version,
          inPlace: capabilities.inPlaceResize,
          dryRun: config.updaterDryRun,
          usage: usage ? 'prometheus' : 'none',
          memory,
          admissionStatus: admissionStatus?.where ?? 'not checked',
        },
        'updater active',
      );
      if (!usage) logger.warn('no --prometheus-url: the updater never lowers a memory limit and its memory pressure guard is off');
      if (!capabilities.inPlaceResize) logger.warn({ version: capabilities.version }, inPlaceUnavailableMessage(capabilities.version));
      loop = new UpdaterLoop({
        sources: caches.sources,
        api,
        logger,
        metrics,
        options,
        capabilities,
        budget: { resizes: config.maxResizesPerLoop, evictions: config.maxEvictionsPerLoop },
        dryRun: config.updaterDryRun,
        instance: config.leaderIdentity ?? 'tailor',
        ...(usage ? { usage } : {}),
        ...(admissionStatus ? { admissionStatus } : {}),
        clock: ctx.clock,
      });
      const current = loop;
      caches.onPod((pod) => current.podSeen(pod));
    },
    async runCycle({ now, signal }) {
      if (!loop || !caches || signal.aborted) return;
      const report = await loop.runOnce(now);
      ctx.metrics.trackedVpas.set({ component: 'updater' }, caches.sources.vpas().length - report.invalidVpas);
      const applied = report.results.filter((r) => r.outcome === 'applied').length;
      // Routine: each action is its own info line (executor.ts), each invalid VPA its own warning (updater-loop.ts).
      logger.debug({ pods: report.decisions.length, actions: report.results.length, applied, invalidVpas: report.invalidVpaNames }, 'updater loop done');
    },
    async deactivate() {
      await caches?.stop();
      caches = undefined;
      loop = undefined;
    },
  };
}
