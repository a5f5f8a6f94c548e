/**
 * The hooks a request runs an object through before it is stored: defaulters fill fields in place,
 * validators return field causes. Built-in kinds, LimitRanges and custom resources each supply some.
 */
import type { StatusCause } from './api-error.ts';
import type { ResourceType } from './resource-type.ts';
import type { KubeObject } from './types.ts';

/** Validation of a whole object: returns field causes (422) or throws an ApiError. */
export type ObjectValidator = (context: ValidationContext) => StatusCause[];

/** What an object validator sees. */
export interface ValidationContext {
  type: ResourceType;
  operation: 'CREATE' | 'UPDATE';
  subresource: string;
  object: KubeObject;
  oldObject: KubeObject | undefined;
}

/** Fills defaults into an object about to be created or updated (in place). */
export type Defaulter = (object: KubeObject, type: ResourceType, operation: 'CREATE' | 'UPDATE') => void;
