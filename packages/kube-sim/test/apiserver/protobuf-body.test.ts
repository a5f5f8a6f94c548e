import { test } from 'node:test';
import assert from 'node:assert/strict';
import protobuf from 'protobufjs';
import { decodeProtobufBody, isProtobuf } from '../../src/apiserver/protobuf-body.ts';
import { ApiError } from '../../src/apiserver/api-error.ts';

// Request bodies captured from kubectl 1.32.4 (`-v=8` prints them as a hex dump).
const KUBECTL_BODIES = {
  // kubectl create namespace fx2
  namespace: '6b3873000a0f0a02763112094e616d657370616365121b0a130a0366783212001a0022002a0032003800420012001a020a001a002200',
  // kubectl create secret generic fx2 --from-literal=k=v
  secret: '6b3873000a0c0a0276311206536563726574121f0a130a0366783212001a0022002a0032003800420012060a016b1201761a001a002200',
  // kubectl create service clusterip fx2 --tcp=443:https
  service:
    '6b3873000a0d0a02763112075365727669636512700a1f0a0366783212001a0022002a003200380042005a0a0a03617070120366783212490a220a093434332d6874747073120354435018bb03220b080110001a0568747470732800120a0a0361707012036678321a002209436c757374657249503a00420052005a00600068001a020a001a002200',
};
const body = (hex: string) => Buffer.from(hex, 'hex');

test('kubectl protobuf bodies decode to the JSON kubectl would have sent', () => {
  // Go zero values that protobuf always writes (empty strings, the zero creationTimestamp) are left out.
  assert.deepEqual(decodeProtobufBody(body(KUBECTL_BODIES.namespace)), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fx2' }, spec: {} });
  // map<string, bytes>: base64 strings, as in JSON ("v" = "dg==").
  assert.deepEqual(decodeProtobufBody(body(KUBECTL_BODIES.secret)), { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'fx2' }, data: { k: 'dg==' } });
  // IntOrString type 1 = string: targetPort "https"; port 443 (bb 03); clusterIP "" and nodePort 0 left out.
  assert.deepEqual(decodeProtobufBody(body(KUBECTL_BODIES.service)), {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'fx2', labels: { app: 'fx2' } },
    spec: { ports: [{ name: '443-https', protocol: 'TCP', port: 443, targetPort: 'https' }], selector: { app: 'fx2' }, type: 'ClusterIP' },
  });
});

/** An envelope around `raw`, written field by field (runtime.Unknown: typeMeta 1, raw 2; TypeMeta: apiVersion 1, kind 2). */
function envelope(apiVersion: string, kind: string, raw: Uint8Array): Buffer {
  const typeMeta = protobuf.Writer.create()
    .uint32((1 << 3) | 2)
    .string(apiVersion)
    .uint32((2 << 3) | 2)
    .string(kind)
    .finish();
  const unknown = protobuf.Writer.create()
    .uint32((1 << 3) | 2)
    .bytes(typeMeta)
    .uint32((2 << 3) | 2)
    .bytes(raw)
    .finish();
  return Buffer.concat([Buffer.from('k8s\0', 'latin1'), unknown]);
}

function rejects(buf: Buffer, pattern: RegExp): void {
  assert.throws(
    () => decodeProtobufBody(buf),
    (err: unknown) =>
      err instanceof ApiError &&
      err.code === 415 &&
      err.reason === 'UnsupportedMediaType' &&
      pattern.test(err.message) &&
      /kubectl create -f FILE/.test(err.message),
  );
}

test('a kind without a message, an undeclared field or a missing magic is 415 that says what to use instead', () => {
  // metadata (field 1) = ObjectMeta{name (field 1) = "x"}
  const meta = protobuf.Writer.create()
    .uint32((1 << 3) | 2)
    .bytes(
      protobuf.Writer.create()
        .uint32((1 << 3) | 2)
        .string('x')
        .finish(),
    )
    .finish();
  assert.deepEqual(decodeProtobufBody(envelope('v1', 'Namespace', meta)), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } });
  rejects(envelope('v1', 'LimitRange', meta), /no protobuf decoding for v1 LimitRange/);
  rejects(envelope('apps/v1beta1', 'Deployment', meta), /no protobuf decoding for apps\/v1beta1 Deployment/);
  const extra = Buffer.concat([
    meta,
    protobuf.Writer.create()
      .uint32((99 << 3) | 0)
      .uint32(7)
      .finish(),
  ]);
  rejects(envelope('v1', 'Namespace', extra), /the protobuf Namespace has fields kube-sim does not decode/);
  rejects(Buffer.from('{"kind":"Namespace"}'), /lacks the "k8s\\0" prefix/);
});

test('isProtobuf recognises the Kubernetes protobuf media type only', () => {
  assert.equal(isProtobuf('application/vnd.kubernetes.protobuf'), true);
  assert.equal(isProtobuf('application/json'), false);
  assert.equal(isProtobuf(undefined), false);
});
