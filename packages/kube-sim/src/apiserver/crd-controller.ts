/**
 * Serves CustomResourceDefinitions: when a CRD is stored, its served versions become a resource
 * type in the registry (with schema, status and scale subresources) and the CRD's status gets
 * `acceptedNames`, `storedVersions` and the `NamesAccepted` / `Established` conditions; when it is
 * deleted, the type and all its objects go away. Also the validator and defaulter that apply the
 * CRD's openAPIV3Schema to custom resources.
 */
import type { ObjectStore } from './object-store.ts';
import type { Defaulter, ObjectValidator } from './object-hooks.ts';
import type { ResourceRegistry } from './resource-registry.ts';
import { resourceKey, type ResourceType } from './resource-type.ts';
import { ratchetCauses } from './validation-ratcheting.ts';
import { pruneAndDefault, unknownFields, validateAgainstSchema, type JsonSchemaProps } from './schema-validation.ts';
import { badRequest } from './api-error.ts';
import { toRfc3339 } from './object-store.ts';
import type { KubeObject } from './types.ts';

const CRD_KEY = 'customresourcedefinitions.apiextensions.k8s.io';

interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  schema?: { openAPIV3Schema?: JsonSchemaProps };
  subresources?: { status?: object; scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string } };
}

interface CrdSpec {
  group: string;
  names: { plural: string; singular?: string; kind: string; listKind?: string; shortNames?: string[]; categories?: string[] };
  scope: 'Namespaced' | 'Cluster';
  versions: CrdVersion[];
}

/** The resource type a CRD defines. */
export function resourceTypeFromCrd(crd: KubeObject): ResourceType {
  const spec = crd.spec as CrdSpec;
  const served = spec.versions.filter((v) => v.served);
  const storage = served.find((v) => v.storage) ?? served[0];
  const ordered = storage ? [storage, ...served.filter((v) => v !== storage)] : served;
  const schemas: Record<string, JsonSchemaProps | undefined> = {};
  for (const v of served) schemas[v.name] = v.schema?.openAPIV3Schema;
  const type: ResourceType = {
    group: spec.group,
    versions: ordered.map((v) => v.name),
    plural: spec.names.plural,
    singular: spec.names.singular ?? spec.names.kind.toLowerCase(),
    kind: spec.names.kind,
    listKind: spec.names.listKind ?? `${spec.names.kind}List`,
    namespaced: spec.scope === 'Namespaced',
    shortNames: spec.names.shortNames ?? [],
    categories: spec.names.categories ?? [],
    hasStatus: Boolean(storage?.subresources?.status),
    strategicMerge: false,
    schemas,
    crdName: crd.metadata.name ?? '',
  };
  if (storage?.subresources?.scale) type.scale = storage.subresources.scale;
  return type;
}

/** Keeps the registry in step with the CRDs in the store and writes CRD status. */
export function startCrdController(store: ObjectStore, registry: ResourceRegistry, now: () => number): () => void {
  const establish = (crd: KubeObject): void => {
    const type = resourceTypeFromCrd(crd);
    registry.add(type);
    const spec = crd.spec as CrdSpec;
    const time = toRfc3339(now());
    const status = {
      acceptedNames: {
        plural: spec.names.plural,
        singular: type.singular,
        kind: spec.names.kind,
        listKind: type.listKind,
        ...(spec.names.shortNames ? { shortNames: spec.names.shortNames } : {}),
        ...(spec.names.categories ? { categories: spec.names.categories } : {}),
      },
      conditions: [
        { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found', lastTransitionTime: time },
        { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted', lastTransitionTime: time },
      ],
      storedVersions: [type.versions[0] ?? ''],
    };
    const old = crd.status as { acceptedNames?: unknown; storedVersions?: string[] } | undefined;
    if (old && JSON.stringify(old.acceptedNames) === JSON.stringify(status.acceptedNames) && old.storedVersions?.includes(status.storedVersions[0] as string))
      return;
    if (old?.storedVersions) status.storedVersions = [...new Set([...old.storedVersions, ...status.storedVersions])];
    store.mutate(CRD_KEY, '', crd.metadata.name ?? '', (draft) => {
      draft.status = status;
    });
  };
  for (const crd of store.list(CRD_KEY)) establish(crd);
  return store.subscribe(CRD_KEY, (event) => {
    if (event.type === 'DELETED') {
      const type = resourceTypeFromCrd(event.object);
      const key = resourceKey(type);
      registry.remove(key);
      for (const obj of store.list(key)) store.delete(key, obj.metadata.namespace ?? '', obj.metadata.name ?? '');
      return;
    }
    establish(event.object);
  });
}

function schemaFor(type: ResourceType, object: KubeObject): JsonSchemaProps | undefined {
  const version = String(object.apiVersion ?? '').split('/')[1] ?? type.versions[0] ?? '';
  return type.schemas?.[version];
}

/** Validates custom resources against their version's schema. */
export const customResourceValidator: ObjectValidator = ({ type, object, operation, oldObject }) => {
  if (type.crdName === undefined) return [];
  const schema = schemaFor(type, object);
  if (!schema) return [];
  const { metadata: _m, ...body } = object;
  const rootSchema: JsonSchemaProps = { ...schema, properties: { ...(schema.properties ?? {}) } };
  delete rootSchema.properties?.['metadata'];
  const schemaCauses = validateAgainstSchema(rootSchema, body, '');
  // Validation ratcheting (validation-ratcheting.ts): what was already invalid may stay so.
  const causes = operation === 'UPDATE' && oldObject ? ratchetCauses(schemaCauses, object, oldObject) : schemaCauses;
  // The real server does not run a schema's CEL rules (x-kubernetes-validations) on an object with a
  // blocking schema error (wrong type, unsupported value, required, too long, too many; not a pattern
  // or a bound) and says so in one more cause (apiextensions' hasBlockingErr; recorded on v1.35.4
  // with the VPA CRD's startupBoost rules). kube-sim evaluates no CEL: it only adds that cause.
  if (causes.some((c) => BLOCKING.has(c.reason ?? '')) && /"(x-kubernetes-validations|xKubernetesValidations)"/.test(JSON.stringify(schema))) {
    causes.push({ reason: 'FieldValueInvalid', message: CEL_NOT_CHECKED, field: '<nil>' });
  }
  return causes;
};

/** Schema errors after which the real server runs no CEL rule. */
const BLOCKING = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);

/** The cause the real server adds when schema errors kept it from running the CEL rules. */
const CEL_NOT_CHECKED =
  'Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

/** Prunes unknown fields and fills schema defaults in custom resources. */
export const customResourceDefaulter: Defaulter = (object, type) => {
  if (type.crdName === undefined) return;
  const schema = schemaFor(type, object);
  if (schema) pruneAndDefault(schema, object);
};

/**
 * `fieldValidation=Strict` for custom resources: fields the schema would prune are a 400, worded
 * like the real decoder: `Widget in version "v1" cannot be handled as a Widget: strict decoding
 * error: unknown field "spec.colour"`.
 */
export function checkStrictFields(type: ResourceType, object: KubeObject): void {
  if (type.crdName === undefined) return;
  const schema = schemaFor(type, object);
  if (!schema) return;
  const unknown = unknownFields(schema, object);
  if (unknown.length === 0) return;
  const version = String(object.apiVersion ?? '').split('/')[1] ?? '';
  const list = unknown.map((f) => `unknown field "${f}"`).join(', ');
  throw badRequest(`${type.kind} in version "${version}" cannot be handled as a ${type.kind}: strict decoding error: ${list}`);
}
