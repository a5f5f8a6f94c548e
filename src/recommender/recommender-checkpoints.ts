/**
 * The recommender's checkpoints: restored on becoming leader, written when due, collected when
 * their VPA is gone.
 *
 * restore: every checkpoint of a handled VPA goes into the aggregates (a malformed one is logged
 * and skipped), with the strategy's model from the checkpoint's annotation when it restores
 * (model-state-annotation.ts, decision 0261). It tells how far back the history must be read again:
 * the oldest `lastSampleStart` (and model state time with a strategy), and whether every restored
 * checkpoint brought a model state that restored (otherwise the full `--history` rebuilds them,
 * decision 0150).
 * write: each VPA x container with samples on `--checkpoint-interval` (checkpoint-schedule.ts),
 * or at shutdown every one with samples since its last write (decision 0287); orphaned ones are
 * deleted when the sweep is due (`--checkpoint-gc-interval`).
 */
import { buildCheckpoint, checkpointName } from '../api/vpa-checkpoint.ts';
import { parseRfc3339 } from '../api/rfc3339.ts';
import type { Logger } from '../observability/logger.ts';
import { loadAggregateCheckpoint, saveAggregateCheckpoint } from '../model/aggregate-checkpoint.ts';
import { defaultModelConfig } from '../model/model-config.ts';
import type { Strategy, UsageModel } from '../model/types.ts';
import { CheckpointSchedule } from './checkpoint-schedule.ts';
import { orphanCheckpoints } from './checkpoint-orphans.ts';
import { decodeModelState, encodeModelState, MODEL_STATE_ANNOTATION } from './model-state-annotation.ts';
import type { RecommenderKube } from './recommender-kube.ts';
import type { RecommenderWriter } from './recommender-writes.ts';
import type { ModelThrough, TrackedContainer, VpaAggregates } from './vpa-aggregates.ts';
import { vpaId, type VpaView } from './vpa-views.ts';

/** What the restored checkpoints leave to read again. */
export interface Restored {
  /** The oldest `lastSampleStart` restored (and model state time with a strategy); undefined when nothing was restored. */
  oldest: number | undefined;
  /** With a strategy: every restored checkpoint brought a model state that restored. */
  modelsResumed: boolean;
}

/** Reads and writes the checkpoints of the handled VPAs; holds when each was last written (per leadership). */
export class RecommenderCheckpoints {
  private schedule: CheckpointSchedule;

  constructor(
    private readonly deps: {
      kube: RecommenderKube;
      writer: RecommenderWriter;
      log: Logger;
      /** The strategy behind the status; undefined for upstream's algorithm. */
      strategy: Strategy | undefined;
      /** `--checkpoint-interval` and `--checkpoint-gc-interval` (ms). */
      intervalMs: number;
      gcIntervalMs: number;
    },
  ) {
    this.schedule = new CheckpointSchedule(deps.intervalMs, deps.gcIntervalMs);
  }

  /** Forgets when each checkpoint was written (a new leadership starts from the checkpoints it restores). */
  reset(): void {
    this.schedule = new CheckpointSchedule(this.deps.intervalMs, this.deps.gcIntervalMs);
  }

  /** Loads every checkpoint of a VPA in `handled` (`namespace/name`) into `aggregates`; a malformed one is logged and skipped. */
  async restore(handled: ReadonlySet<string>, aggregates: VpaAggregates): Promise<Restored> {
    const { strategy, log } = this.deps;
    let oldest: number | undefined;
    let restored = 0;
    let modelStates = 0;
    let allModels = true;
    for (const c of await this.deps.kube.listCheckpoints()) {
      const id = vpaId(c.metadata.namespace, c.spec?.vpaObjectName ?? '');
      const container = c.spec?.containerName;
      if (!handled.has(id) || container === undefined) continue;
      try {
        const created = typeof c.metadata['creationTimestamp'] === 'string' ? parseRfc3339(c.metadata['creationTimestamp']) : undefined;
        const state = loadAggregateCheckpoint(defaultModelConfig(), c.status, created);
        const model = this.restoreModel(c.metadata, `${c.metadata.namespace}/${c.metadata.name}`);
        if (strategy && !model) allModels = false;
        if (model) {
          modelStates++;
          const since = Math.min(model.through.cpu, model.through.memory);
          if (Number.isFinite(since)) oldest = oldest === undefined ? since : Math.min(oldest, since);
        }
        aggregates.restore(id, container, state, model);
        // The new leader writes it again once it has new samples, else one interval after its last write.
        const updated = c.status?.lastUpdateTime ? Date.parse(c.status.lastUpdateTime) : Number.NaN;
        if (Number.isFinite(updated)) this.schedule.restored(`${id}/${container}`, updated, state.totalSamplesCount);
        restored++;
        if (state.lastSampleStart !== undefined) oldest = oldest === undefined ? state.lastSampleStart : Math.min(oldest, state.lastSampleStart);
      } catch (err) {
        log.warn({ err, checkpoint: `${c.metadata.namespace}/${c.metadata.name}` }, 'checkpoint cannot be loaded; that container starts without it');
      }
    }
    const modelsResumed = strategy !== undefined && restored > 0 && allModels;
    log.info(
      {
        restored,
        modelStates,
        resumeFrom: oldest === undefined ? undefined : new Date(oldest).toISOString(),
        fullHistory: strategy !== undefined && !modelsResumed,
      },
      'checkpoints restored',
    );
    return { oldest, modelsResumed };
  }

  /**
   * The strategy's model restored from the checkpoint's annotation, or undefined (none, or one
   * that does not restore: a warning, and that model is rebuilt from the history).
   */
  private restoreModel(metadata: { [key: string]: unknown }, name: string): { model: UsageModel; through: ModelThrough } | undefined {
    const { strategy, log } = this.deps;
    const restore = strategy?.restoreModel;
    if (!restore) return undefined;
    const value = (metadata['annotations'] as Record<string, unknown> | undefined)?.[MODEL_STATE_ANNOTATION];
    if (typeof value !== 'string') {
      log.warn({ checkpoint: name, annotation: MODEL_STATE_ANNOTATION }, 'checkpoint has no model state; the full history is read to rebuild the model');
      return undefined;
    }
    try {
      const { state, through } = decodeModelState(value);
      return { model: restore.call(strategy, state), through };
    } catch (err) {
      log.warn({ err, checkpoint: name, annotation: MODEL_STATE_ANNOTATION }, 'model state cannot be restored; the full history is read to rebuild the model');
      return undefined;
    }
  }

  /** The annotation value of a tracked container's model state; undefined without one (logged when saving fails). */
  private saveModel(t: TrackedContainer, id: string): string | undefined {
    const { strategy } = this.deps;
    if (!strategy?.saveModel || !t.model || !t.modelThrough) return undefined;
    try {
      return encodeModelState(strategy.saveModel(t.model), t.modelThrough);
    } catch (err) {
      this.deps.log.warn({ err, container: id }, 'model state not saved; a restart reads the full history');
      return undefined;
    }
  }

  /**
   * Writes the checkpoints that are due (with `all`, at shutdown: all with samples since their last write) per handled VPA x
   * container with samples; deletes orphans (checkpoints of no VPA in `existing()`) when the sweep is due.
   */
  async write(
    views: readonly VpaView[],
    aggregates: VpaAggregates,
    existing: () => ReadonlySet<string>,
    now: number,
    signal: AbortSignal,
    o: { all: boolean },
  ): Promise<{ written: number; failed: number }> {
    const { kube, writer, log } = this.deps;
    const live = new Set<string>();
    let written = 0;
    let failed = 0;
    for (const v of views) {
      if (v.problem) continue;
      for (const [container, t] of aggregates.byVpa.get(v.id) ?? []) {
        if (t.state.totalSamplesCount === 0) continue;
        const id = `${v.id}/${container}`;
        live.add(id);
        const samples = t.state.totalSamplesCount;
        if (signal.aborted || !(o.all ? this.schedule.changed(id, samples) : this.schedule.due(id, now, samples))) continue;
        const ns = v.vpa.metadata.namespace ?? '';
        const checkpoint = buildCheckpoint(ns, v.vpa.metadata.name, container, saveAggregateCheckpoint(t.state, now));
        const modelState = this.saveModel(t, id);
        if (modelState !== undefined) checkpoint.metadata['annotations'] = { [MODEL_STATE_ANNOTATION]: modelState };
        const result = await writer.write(
          'checkpoint',
          `checkpoint ${ns}/${checkpointName(v.vpa.metadata.name, container)}`,
          () => kube.applyCheckpoint(checkpoint),
          signal,
        );
        if (result.ok) {
          this.schedule.wrote(id, now, samples);
          written++;
        } else failed++;
      }
    }
    const done = { written, failed };
    if (written + failed > 0) log.debug(done, 'checkpoints written');
    if (o.all) return done;
    this.schedule.retain(live);
    if (signal.aborted || !this.schedule.gcDue(now)) return done;
    const vpas = existing();
    let orphans: Array<{ namespace: string; name: string }>;
    try {
      orphans = orphanCheckpoints(await kube.listCheckpoints(), vpas);
    } catch (err) {
      log.error({ err }, 'checkpoints not listed; orphans are collected next cycle');
      return done;
    }
    let left = 0;
    for (const orphan of orphans) {
      const result = await writer.write(
        'checkpoint_delete',
        `checkpoint ${orphan.namespace}/${orphan.name}`,
        () => kube.deleteCheckpoint(orphan.namespace, orphan.name),
        signal,
      );
      if (result.ok) log.info({ checkpoint: `${orphan.namespace}/${orphan.name}` }, 'orphaned checkpoint deleted');
      else if (result.kind !== 'notFound') left++;
    }
    if (left === 0) this.schedule.sweptAt(now);
    return done;
  }
}
