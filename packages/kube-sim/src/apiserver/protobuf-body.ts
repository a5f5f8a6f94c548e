/**
 * Decodes the protobuf request bodies kubectl sends through its typed clients
 * (`Content-Type: application/vnd.kubernetes.protobuf`; kubectl does not fall back to JSON on a
 * 415): the `k8s\0` magic, then a runtime.Unknown envelope {typeMeta, raw}, `raw` being the object
 * (messages in protobuf-schema.ts). The result is the JSON shape the rest of the server uses;
 * responses stay JSON, which kubectl accepts. A kind without a message, or a body with a field the
 * schema does not declare, is 415 with a message that says what to send instead.
 */
import protobuf from 'protobufjs';
import { ApiError } from './api-error.ts';
import { KUBE_PROTO, POINTER_FIELDS, PROTOBUF_KINDS } from './protobuf-schema.ts';

const MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';
const ACCEPTED = ['application/json', 'application/yaml', `${MEDIA_TYPE} (for ${[...new Set(Object.values(PROTOBUF_KINDS))].sort().join(', ')})`];

const root = protobuf.parse(KUBE_PROTO, { keepCase: true }).root;
const lookup = (name: string): protobuf.Type => root.lookupType(`k8s.${name}`);
const UNKNOWN = lookup('Unknown');

/** 415 whose message says what kube-sim does accept and how to get it from kubectl. */
function unsupported(detail: string): ApiError {
  return new ApiError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - ${detail}; accepted media types include: ${ACCEPTED.join(', ')}. ` +
      `kube-sim decodes protobuf only for the kinds listed; send JSON or YAML instead, e.g. "kubectl create -f FILE" or "kubectl apply -f FILE" (see docs/kube-sim.md)`,
    {},
    { cause: MEDIA_TYPE },
  );
}

/** True when a Content-Type is Kubernetes protobuf. */
export function isProtobuf(contentType: string | undefined): boolean {
  return (contentType ?? '').startsWith(MEDIA_TYPE);
}

function toNumber(value: unknown): number {
  return typeof value === 'number' ? value : Number(String(value)); // int64 values come as Long
}

/** RFC 3339 of a meta/v1 Time, or undefined for the zero time (Go's zero value, `null` in JSON). */
function timeToJson(message: Record<string, unknown>): string | undefined {
  const seconds = toNumber(message['seconds'] ?? 0);
  if (seconds === 0) return undefined;
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

/** One field value in its JSON form; undefined when JSON would leave it out. */
function valueToJson(field: protobuf.Field, value: unknown): unknown {
  const type = field.resolvedType;
  if (type instanceof protobuf.Type) {
    if (type.name === 'Time') return timeToJson(value as Record<string, unknown>);
    if (type.name === 'Quantity') return (value as { string?: string }).string ?? '0';
    if (type.name === 'IntOrString') {
      const v = value as { type?: unknown; intVal?: number; strVal?: string };
      return toNumber(v.type ?? 0) === 1 ? (v.strVal ?? '') : (v.intVal ?? 0);
    }
    return messageToJson(type, value as Record<string, unknown>);
  }
  if (field.type === 'bytes') return Buffer.from(value as Uint8Array).toString('base64');
  if (field.type === 'int64' || field.type === 'uint64') return toNumber(value);
  return value;
}

/** A decoded message in its JSON form (see POINTER_FIELDS for which zero values are kept). */
function messageToJson(type: protobuf.Type, message: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    if (!Object.prototype.hasOwnProperty.call(message, field.name)) continue;
    const value = message[field.name];
    if (field.map) {
      const entries = Object.entries(value as Record<string, unknown>);
      if (entries.length > 0) out[field.name] = Object.fromEntries(entries.map(([k, v]) => [k, valueToJson(field, v)]));
    } else if (field.repeated) {
      const items = value as unknown[];
      if (items.length > 0) out[field.name] = items.map((v) => valueToJson(field, v));
    } else if (field.type === 'bytes' && field.name === 'status') {
      continue; // status parts are not decoded: the server resets them on create
    } else {
      const json = valueToJson(field, value);
      const zero = json === '' || json === 0 || json === false;
      if (json !== undefined && (!zero || POINTER_FIELDS.has(`${type.name}.${field.name}`))) out[field.name] = json;
    }
  }
  return out;
}

/** Decodes an enveloped protobuf body into its JSON form; 415 for kinds or fields it does not know. */
export function decodeProtobufBody(body: Buffer): Record<string, unknown> {
  if (body.length < 4 || body.subarray(0, 4).toString('latin1') !== 'k8s\u0000') throw unsupported('the protobuf body lacks the "k8s\\0" prefix');
  let envelope: { typeMeta?: { apiVersion?: string; kind?: string }; raw?: Uint8Array };
  try {
    envelope = UNKNOWN.decode(body.subarray(4)) as typeof envelope;
  } catch (err) {
    throw new ApiError(400, 'BadRequest', `error decoding protobuf body: ${(err as Error).message}`, undefined, { cause: err });
  }
  const apiVersion = envelope.typeMeta?.apiVersion ?? '';
  const kind = envelope.typeMeta?.kind ?? '';
  const name = PROTOBUF_KINDS[`${apiVersion}/${kind}`];
  if (!name || !envelope.raw) throw unsupported(`no protobuf decoding for ${apiVersion || '(no apiVersion)'} ${kind || '(no kind)'}`);
  const type = lookup(name);
  let message: protobuf.Message;
  try {
    message = type.decode(envelope.raw);
  } catch (err) {
    throw new ApiError(400, 'BadRequest', `error decoding protobuf ${kind}: ${(err as Error).message}`, undefined, { cause: err });
  }
  // protobufjs skips fields it has no declaration for; re-encoding shows whether any were there.
  if (type.encode(message).finish().length !== envelope.raw.length) {
    throw unsupported(`the protobuf ${kind} has fields kube-sim does not decode`);
  }
  return { apiVersion, kind, ...messageToJson(type, message as unknown as Record<string, unknown>) };
}
