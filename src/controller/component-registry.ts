/**
 * Which components `tailor run` can start. A component is registered by adding its factory to
 * {@link COMPONENT_FACTORIES}; until then `tailor run --components <it>` fails with a message
 * naming it and the issue that brings it (no stand-in is ever started).
 */
import { COMPONENT_NAMES, type ComponentName } from './controller-options.ts';
import type { ComponentFactory } from './component.ts';

/**
 * The implemented components. The recommender (issue 6), updater (issue 7) and admission webhook
 * (issue 8) add themselves here. Each is loaded only when started: a pod that runs the recommender
 * alone never loads the updater's or the webhook's code (nor node-forge, which only the webhook's
 * certificates need).
 */
export const COMPONENT_FACTORIES: Readonly<Partial<Record<ComponentName, ComponentFactory>>> = {
  recommender: async (ctx) => (await import('./recommender-component.ts')).createRecommenderComponent(ctx),
  updater: async (ctx) => (await import('./updater-component.ts')).createUpdaterComponent(ctx),
  admission: async (ctx) => (await import('./admission-component.ts')).createAdmissionComponent(ctx),
};

/** Where each component is being built. */
export const COMPONENT_ISSUES: Readonly<Record<ComponentName, string>> = {
  recommender: 'issue 6',
  updater: 'issue 7',
  admission: 'issue 8',
};

/** A requested component that has no implementation. */
export class ComponentNotImplementedError extends Error {
  constructor(
    readonly missing: readonly ComponentName[],
    implemented: readonly ComponentName[],
  ) {
    super(
      `not implemented yet: ${missing.map((n) => `${n} (${COMPONENT_ISSUES[n]})`).join(', ')}. ` +
        `tailor run has the configuration, cluster connection, leader election, schedule and /metrics /healthz /readyz ready for them; ` +
        `implemented components: ${implemented.join(', ') || 'none'}.`,
    );
    this.name = 'ComponentNotImplementedError';
  }
}

/** The factories of `names`; throws {@link ComponentNotImplementedError} naming every missing one. */
export function componentFactories(
  names: readonly ComponentName[],
  factories: Readonly<Partial<Record<ComponentName, ComponentFactory>>> = COMPONENT_FACTORIES,
): [ComponentName, ComponentFactory][] {
  const missing = names.filter((n) => factories[n] === undefined);
  if (missing.length > 0)
    throw new ComponentNotImplementedError(
      missing,
      COMPONENT_NAMES.filter((n) => factories[n] !== undefined),
    );
  return names.map((n) => [n, factories[n]!]);
}
