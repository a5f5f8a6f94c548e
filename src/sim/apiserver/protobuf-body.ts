/**
 * Decodes the few protobuf request bodies kubectl sends through its typed clients
 * (`kubectl auth can-i`, `kubectl drain`, `kubectl create token`): the Kubernetes envelope
 * (`k8s\0` + runtime.Unknown{typeMeta, raw}) around Eviction, SelfSubjectAccessReview,
 * SubjectAccessReview, TokenRequest, Binding and DeleteOptions, into the JSON shape the rest of
 * the server uses. Responses stay JSON, which those clients accept. Other kinds are 415.
 */
import { unsupportedMediaType } from './api-error.ts';

/** Field number -> [json name, type] for one message; a nested message type is a string key. */
type FieldSpec = Record<number, [string, 'string' | 'int' | 'bool' | 'strings' | 'map' | string]>;

const MESSAGES: Record<string, FieldSpec> = {
  ObjectMeta: { 1: ['name', 'string'], 2: ['generateName', 'string'], 3: ['namespace', 'string'], 5: ['uid', 'string'], 6: ['resourceVersion', 'string'], 11: ['labels', 'map'], 12: ['annotations', 'map'] },
  Preconditions: { 1: ['uid', 'string'], 2: ['resourceVersion', 'string'] },
  DeleteOptions: { 1: ['gracePeriodSeconds', 'int'], 2: ['preconditions', 'Preconditions'], 3: ['orphanDependents', 'bool'], 4: ['propagationPolicy', 'string'], 5: ['dryRun', 'strings'] },
  Eviction: { 1: ['metadata', 'ObjectMeta'], 2: ['deleteOptions', 'DeleteOptions'] },
  ResourceAttributes: { 1: ['namespace', 'string'], 2: ['verb', 'string'], 3: ['group', 'string'], 4: ['version', 'string'], 5: ['resource', 'string'], 6: ['subresource', 'string'], 7: ['name', 'string'] },
  NonResourceAttributes: { 1: ['path', 'string'], 2: ['verb', 'string'] },
  SelfSubjectAccessReviewSpec: { 1: ['resourceAttributes', 'ResourceAttributes'], 2: ['nonResourceAttributes', 'NonResourceAttributes'] },
  SelfSubjectAccessReview: { 1: ['metadata', 'ObjectMeta'], 2: ['spec', 'SelfSubjectAccessReviewSpec'] },
  SubjectAccessReviewSpec: { 1: ['resourceAttributes', 'ResourceAttributes'], 2: ['nonResourceAttributes', 'NonResourceAttributes'], 3: ['user', 'string'], 4: ['groups', 'strings'], 6: ['uid', 'string'] },
  SubjectAccessReview: { 1: ['metadata', 'ObjectMeta'], 2: ['spec', 'SubjectAccessReviewSpec'] },
  BoundObjectReference: { 1: ['kind', 'string'], 2: ['apiVersion', 'string'], 3: ['name', 'string'], 4: ['uid', 'string'] },
  TokenRequestSpec: { 1: ['audiences', 'strings'], 3: ['boundObjectRef', 'BoundObjectReference'], 4: ['expirationSeconds', 'int'] },
  TokenRequest: { 1: ['metadata', 'ObjectMeta'], 2: ['spec', 'TokenRequestSpec'] },
  ObjectReference: { 1: ['kind', 'string'], 2: ['namespace', 'string'], 3: ['name', 'string'], 4: ['uid', 'string'], 5: ['apiVersion', 'string'], 6: ['resourceVersion', 'string'], 7: ['fieldPath', 'string'] },
  Binding: { 1: ['metadata', 'ObjectMeta'], 2: ['target', 'ObjectReference'] },
  TypeMeta: { 1: ['apiVersion', 'string'], 2: ['kind', 'string'] },
  Unknown: { 1: ['typeMeta', 'TypeMeta'], 2: ['raw', 'bytes'], 3: ['contentEncoding', 'string'], 4: ['contentType', 'string'] },
  MapEntry: { 1: ['key', 'string'], 2: ['value', 'string'] },
};

class Reader {
  pos = 0;
  constructor(readonly buf: Buffer) {}
  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = this.buf[this.pos++];
      if (byte === undefined) throw new Error('truncated varint');
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  }
  bytes(): Buffer {
    const len = Number(this.varint());
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }
}

function decodeMessage(buf: Buffer, type: string): Record<string, unknown> {
  const spec = MESSAGES[type] ?? {};
  const out: Record<string, unknown> = {};
  const r = new Reader(buf);
  while (r.pos < buf.length) {
    const tag = Number(r.varint());
    const field = tag >>> 3;
    const wire = tag & 7;
    let value: unknown;
    if (wire === 0) value = r.varint();
    else if (wire === 2) value = r.bytes();
    else if (wire === 1) {
      value = buf.readBigInt64LE(r.pos);
      r.pos += 8;
    } else if (wire === 5) {
      value = buf.readInt32LE(r.pos);
      r.pos += 4;
    } else throw new Error(`unsupported wire type ${wire}`);
    const entry = spec[field];
    if (!entry) continue;
    const [name, kind] = entry;
    if (kind === 'string') out[name] = (value as Buffer).toString('utf8');
    else if (kind === 'bytes') out[name] = value;
    else if (kind === 'int') out[name] = Number(value as bigint);
    else if (kind === 'bool') out[name] = (value as bigint) !== 0n;
    else if (kind === 'strings') out[name] = [...((out[name] as string[] | undefined) ?? []), (value as Buffer).toString('utf8')];
    else if (kind === 'map') {
      const e = decodeMessage(value as Buffer, 'MapEntry');
      out[name] = { ...((out[name] as Record<string, string> | undefined) ?? {}), [String(e['key'] ?? '')]: String(e['value'] ?? '') };
    } else out[name] = decodeMessage(value as Buffer, kind);
  }
  return out;
}

/** True when a Content-Type is Kubernetes protobuf. */
export function isProtobuf(contentType: string | undefined): boolean {
  return (contentType ?? '').startsWith('application/vnd.kubernetes.protobuf');
}

/** Decodes an enveloped protobuf body into JSON; 415 for kinds it does not know. */
export function decodeProtobufBody(body: Buffer): Record<string, unknown> {
  const accepted = ['application/json', 'application/yaml'];
  if (body.length < 4 || body.subarray(0, 4).toString('latin1') !== 'k8s\u0000') throw unsupportedMediaType('application/vnd.kubernetes.protobuf', accepted);
  const unknown = decodeMessage(body.subarray(4), 'Unknown');
  const typeMeta = (unknown['typeMeta'] ?? {}) as { apiVersion?: string; kind?: string };
  const kind = typeMeta.kind ?? '';
  if (!MESSAGES[kind] || !(unknown['raw'] instanceof Buffer)) throw unsupportedMediaType(`application/vnd.kubernetes.protobuf (${kind})`, accepted);
  return { apiVersion: typeMeta.apiVersion, kind, ...decodeMessage(unknown['raw'], kind) };
}
