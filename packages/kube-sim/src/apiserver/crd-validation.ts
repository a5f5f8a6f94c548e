/**
 * Validation of CustomResourceDefinitions themselves, the rules a hand-written CRD trips over:
 * the name must be `<plural>.<group>`, group, names.plural, names.kind and scope are required,
 * and exactly one served version is the storage version. Without it a malformed CRD could not be
 * served at all.
 */
import type { StatusCause } from './api-error.ts';
import type { ObjectValidator } from './object-hooks.ts';

interface CrdSpecLike {
  group?: string;
  scope?: string;
  names?: { plural?: string; kind?: string };
  versions?: { name?: string; served?: boolean; storage?: boolean }[];
}

/** The CRD validator (apiextensions.k8s.io CustomResourceDefinition). */
export const crdValidator: ObjectValidator = ({ type, object }) => {
  if (type.group !== 'apiextensions.k8s.io' || type.kind !== 'CustomResourceDefinition') return [];
  const spec = (object.spec ?? {}) as CrdSpecLike;
  const causes: StatusCause[] = [];
  const required = (field: string): void => {
    causes.push({ reason: 'FieldValueRequired', message: 'Required value', field });
  };
  if (!spec.group) required('spec.group');
  if (!spec.names?.plural) required('spec.names.plural');
  if (!spec.names?.kind) required('spec.names.kind');
  if (spec.scope !== 'Namespaced' && spec.scope !== 'Cluster') {
    causes.push({
      reason: 'FieldValueNotSupported',
      message: `Unsupported value: "${spec.scope ?? ''}": supported values: "Cluster", "Namespaced"`,
      field: 'spec.scope',
    });
  }
  const expectedName = `${spec.names?.plural ?? ''}.${spec.group ?? ''}`;
  if (object.metadata.name !== expectedName) {
    causes.push({
      reason: 'FieldValueInvalid',
      message: `Invalid value: "${object.metadata.name ?? ''}": must be spec.names.plural+"."+spec.group`,
      field: 'metadata.name',
    });
  }
  const versions = Array.isArray(spec.versions) ? spec.versions : [];
  if (versions.length === 0) required('spec.versions');
  else {
    const storage = versions.filter((v) => v.storage).length;
    if (storage !== 1) {
      causes.push({
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${JSON.stringify(versions.map((v) => v.name))}: must have exactly one version marked as storage version`,
        field: 'spec.versions',
      });
    }
    versions.forEach((v, i) => {
      if (!v.name) required(`spec.versions[${i}].name`);
    });
  }
  return causes;
};
