/**
 * Structural-schema handling for custom resources (apiextensions.k8s.io/v1 openAPIV3Schema):
 * validation of types, required, enum, minimum/maximum (and exclusive), minLength/maxLength,
 * pattern, minItems/maxItems, minProperties/maxProperties, nullable, int-or-string; pruning of
 * fields the schema does not declare (unless `x-kubernetes-preserve-unknown-fields`); and
 * `default` values. Causes use the real server's wording, e.g.
 * `spec.updatePolicy.updateMode: Unsupported value: "Sometimes": supported values: "Off", "Auto"`.
 */
import type { StatusCause } from './api-error.ts';
import { isPlainObject } from './types.ts';

/** The subset of JSONSchemaProps kube-sim understands. */
export interface JsonSchemaProps {
  type?: string;
  format?: string;
  description?: string;
  properties?: Record<string, JsonSchemaProps>;
  additionalProperties?: JsonSchemaProps | boolean;
  items?: JsonSchemaProps;
  required?: string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
  nullable?: boolean;
  default?: unknown;
  anyOf?: JsonSchemaProps[];
  oneOf?: JsonSchemaProps[];
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value;
}

function fmt(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
}

function typeMatches(schema: JsonSchemaProps, value: unknown): boolean {
  if (schema['x-kubernetes-int-or-string']) return typeof value === 'string' || Number.isInteger(value);
  switch (schema.type) {
    case undefined:
      return true;
    case 'object':
      return isPlainObject(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return true;
  }
}

/** Validates `value` against `schema`; returns the causes (empty when valid). */
export function validateAgainstSchema(schema: JsonSchemaProps, value: unknown, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  walk(schema, value, path, causes);
  return causes;
}

function walk(schema: JsonSchemaProps, value: unknown, path: string, causes: StatusCause[]): void {
  if (value === null) {
    if (!schema.nullable && schema.type !== undefined) {
      causes.push({ reason: 'FieldValueTypeInvalid', message: `Invalid value: "null": ${path} in body must be of type ${schema.type}: "null"`, field: path });
    }
    return;
  }
  if (!typeMatches(schema, value)) {
    const expected = schema['x-kubernetes-int-or-string'] ? 'integer,string' : (schema.type ?? '');
    causes.push({
      reason: 'FieldValueTypeInvalid',
      message: `Invalid value: "${typeName(value)}": ${path} in body must be of type ${expected}: "${typeName(value)}"`,
      field: path,
    });
    return;
  }
  if (schema.enum && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    causes.push({
      reason: 'FieldValueNotSupported',
      message: `Unsupported value: ${fmt(value)}: supported values: ${schema.enum.map(fmt).join(', ')}`,
      field: path,
    });
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && (schema.exclusiveMinimum ? value <= schema.minimum : value < schema.minimum)) {
      causes.push({
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${value}: ${path} in body should be greater than ${schema.exclusiveMinimum ? '' : 'or equal to '}${schema.minimum}`,
        field: path,
      });
    }
    if (schema.maximum !== undefined && (schema.exclusiveMaximum ? value >= schema.maximum : value > schema.maximum)) {
      causes.push({
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${value}: ${path} in body should be less than ${schema.exclusiveMaximum ? '' : 'or equal to '}${schema.maximum}`,
        field: path,
      });
    }
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) {
      causes.push({
        reason: 'FieldValueInvalid',
        message: `Invalid value: "${value}": ${path} in body should be at least ${schema.minLength} chars long`,
        field: path,
      });
    }
    if (schema.maxLength !== undefined && value.length > schema.maxLength) {
      causes.push({ reason: 'FieldValueTooLong', message: `Too long: may not be longer than ${schema.maxLength}`, field: path });
    }
    if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) {
      causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: "${value}": ${path} in body should match '${schema.pattern}'`, field: path });
    }
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) {
      causes.push({
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${value.length}: ${path} in body should have at least ${schema.minItems} items`,
        field: path,
      });
    }
    if (schema.maxItems !== undefined && value.length > schema.maxItems) {
      causes.push({ reason: 'FieldValueTooMany', message: `Too many: ${value.length}: must have at most ${schema.maxItems} items`, field: path });
    }
    if (schema.items) value.forEach((item, i) => walk(schema.items as JsonSchemaProps, item, `${path}[${i}]`, causes));
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (schema.minProperties !== undefined && keys.length < schema.minProperties) {
      causes.push({
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${keys.length}: ${path} in body should have at least ${schema.minProperties} properties`,
        field: path,
      });
    }
    if (schema.maxProperties !== undefined && keys.length > schema.maxProperties) {
      causes.push({ reason: 'FieldValueTooMany', message: `Too many: ${keys.length}: must have at most ${schema.maxProperties} items`, field: path });
    }
    for (const req of schema.required ?? []) {
      if (!(req in value)) causes.push({ reason: 'FieldValueRequired', message: 'Required value', field: path ? `${path}.${req}` : req });
    }
    for (const [key, child] of Object.entries(value)) {
      const childPath = path ? `${path}.${key}` : key;
      const prop = schema.properties?.[key];
      if (prop) walk(prop, child, childPath, causes);
      else if (isPlainObject(schema.additionalProperties)) walk(schema.additionalProperties, child, childPath, causes);
    }
  }
  for (const alternatives of [schema.anyOf, schema.oneOf]) {
    if (!alternatives) continue;
    const passing = alternatives.filter((alt) => validateAgainstSchema(alt, value, path).length === 0).length;
    if (passing === 0 || (alternatives === schema.oneOf && passing > 1)) {
      causes.push({
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${JSON.stringify(value)}: ${path} in body must validate ${alternatives === schema.oneOf ? 'one and only one' : 'at least one'} schema`,
        field: path,
      });
    }
  }
}

/**
 * Removes fields the schema does not declare and fills `default`s, in place. `metadata`,
 * `apiVersion` and `kind` at the root are kept. The paths of removed fields are pushed to
 * `pruned` (e.g. `spec.unknownField`), which strict field validation reports.
 */
export function pruneAndDefault(schema: JsonSchemaProps, value: unknown, isRoot = true, pruned: string[] = [], path = ''): void {
  const at = (key: string): string => (path ? `${path}.${key}` : key);
  if (!isPlainObject(value)) {
    if (Array.isArray(value) && schema.items)
      value.forEach((item, i) => pruneAndDefault(schema.items as JsonSchemaProps, item, false, pruned, `${path}[${i}]`));
    return;
  }
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    if (!(key in value) && prop.default !== undefined) value[key] = structuredClone(prop.default);
  }
  for (const key of Object.keys(value)) {
    if (isRoot && (key === 'metadata' || key === 'apiVersion' || key === 'kind')) continue;
    const prop = schema.properties?.[key];
    if (prop) {
      if (!prop['x-kubernetes-embedded-resource'] || !prop['x-kubernetes-preserve-unknown-fields']) pruneAndDefault(prop, value[key], false, pruned, at(key));
    } else if (isPlainObject(schema.additionalProperties)) {
      pruneAndDefault(schema.additionalProperties, value[key], false, pruned, at(key));
    } else if (!schema['x-kubernetes-preserve-unknown-fields'] && schema.additionalProperties !== true) {
      pruned.push(at(key));
      delete value[key];
    }
  }
}

/** The fields pruning would remove from `value` (nothing is changed). */
export function unknownFields(schema: JsonSchemaProps, value: unknown): string[] {
  const pruned: string[] = [];
  pruneAndDefault(schema, structuredClone(value), true, pruned);
  return pruned;
}
