/**
 * Validation of Events as the real server does it. events.k8s.io/v1 requires eventTime,
 * reportingController, reportingInstance, action and reason, and a type of Normal or Warning;
 * in both APIs the regarding/involved object's namespace must match the event's namespace.
 */
import type { StatusCause } from './api-error.ts';
import type { ObjectValidator } from './object-hooks.ts';

type Any = Record<string, unknown>;

/** The Event validator (core/v1 and events.k8s.io/v1). */
export const eventValidator: ObjectValidator = ({ type, object, operation }) => {
  if (type.kind !== 'Event' || operation !== 'CREATE') return [];
  const e = object as unknown as Any;
  const causes: StatusCause[] = [];
  const ns = object.metadata.namespace ?? '';
  const involvedField = type.group === 'events.k8s.io' ? 'regarding' : 'involvedObject';
  const involved = (e[involvedField] ?? {}) as Any;
  const involvedNs = typeof involved['namespace'] === 'string' ? involved['namespace'] : '';
  if (involvedNs !== '' && involvedNs !== ns) {
    causes.push({
      reason: 'FieldValueInvalid',
      message: `Invalid value: "${involvedNs}": does not match event.namespace`,
      field: `${involvedField}.namespace`,
    });
  }
  if (type.group === 'events.k8s.io') {
    const required = (field: string): void => {
      const value = e[field];
      if (value === undefined || value === null || value === '') causes.push({ reason: 'FieldValueRequired', message: 'Required value', field });
    };
    required('eventTime');
    required('reportingController');
    required('reportingInstance');
    required('action');
    required('reason');
    if (e['type'] !== 'Normal' && e['type'] !== 'Warning') {
      causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: "": has invalid value: ${String(e['type'] ?? '')}`, field: 'type' });
    }
    for (const field of ['action', 'reason', 'reportingInstance']) {
      const value = e[field];
      if (typeof value === 'string' && value.length > 128)
        causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: "": can have at most 128 characters`, field });
    }
    if (typeof e['note'] === 'string' && Buffer.byteLength(e['note']) > 1024)
      causes.push({ reason: 'FieldValueInvalid', message: 'Invalid value: "": can have at most 1024 characters', field: 'note' });
  }
  return causes;
};
