import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SUITES } from './suites.ts';
import { isDeploymentFile, UPSTREAM_DEPLOYMENTS, upstreamDeployment, upstreamFiles } from './upstream-manifests.ts';

// Shaped like upstream's deploy/admission-controller-deployment.yaml (v1.8.1), with an init
// container and a pull policy of Always, which the lane must not keep.
const DEPLOYMENT = `---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: vpa-admission-controller
  namespace: kube-system
spec:
  replicas: 1
  selector:
    matchLabels:
      app: vpa-admission-controller
  template:
    metadata:
      labels:
        app: vpa-admission-controller
    spec:
      serviceAccountName: vpa-admission-controller
      securityContext:
        runAsNonRoot: true
        runAsUser: 65534 # nobody
      initContainers:
        - name: wait
          image: registry.k8s.io/autoscaling/vpa-admission-controller:1.8.1
      containers:
        - name: admission-controller
          image: registry.k8s.io/autoscaling/vpa-admission-controller:1.8.1
          imagePullPolicy: Always
          args: ["--v=4", "--stderrthreshold=info", "--reload-cert"]
          volumeMounts:
            - name: tls-certs
              mountPath: "/etc/tls-certs"
              readOnly: true
      volumes:
        - name: tls-certs
          secret:
            secretName: vpa-tls-certs
`;
const IMAGES = ['registry.k8s.io/autoscaling/vpa-admission-controller:1.8.1', 'registry.k8s.io/autoscaling/vpa-updater:1.8.1'];

test("upstreamFiles: CRDs and RBAC always, then only the suite's components in vpa-process-yamls.sh's order", () => {
  assert.deepEqual(upstreamFiles(SUITES['admission-controller']!), [
    'vpa-v1-crd-gen.yaml',
    'vpa-rbac.yaml',
    'admission-controller-deployment.yaml',
    'admission-controller-service.yaml',
  ]);
  assert.deepEqual(upstreamFiles(SUITES.recommender!), ['vpa-v1-crd-gen.yaml', 'vpa-rbac.yaml', 'recommender-deployment.yaml']);
  assert.deepEqual(upstreamFiles(SUITES.actuation!), [
    'vpa-v1-crd-gen.yaml',
    'vpa-rbac.yaml',
    'updater-deployment.yaml',
    'admission-controller-deployment.yaml',
    'admission-controller-service.yaml',
  ]);
  assert.deepEqual(upstreamFiles(SUITES['full-vpa']!), [
    'vpa-v1-crd-gen.yaml',
    'vpa-rbac.yaml',
    'updater-deployment.yaml',
    'recommender-deployment.yaml',
    'admission-controller-deployment.yaml',
    'admission-controller-service.yaml',
  ]);
  assert.deepEqual(
    upstreamFiles(SUITES['full-vpa']!)
      .filter(isDeploymentFile)
      .map((f) => `vpa-${f.replace('-deployment.yaml', '')}`)
      .sort(),
    Object.values(UPSTREAM_DEPLOYMENTS).sort(),
  );
});

test("upstreamDeployment: every container pulls Never (the lane's imported image), the rest as upstream wrote it", () => {
  const d = upstreamDeployment(DEPLOYMENT, IMAGES);
  const spec = d.spec!.template.spec!;
  assert.deepEqual(
    [...spec.initContainers!, ...spec.containers].map((c) => c.imagePullPolicy),
    ['Never', 'Never'],
  );
  assert.deepEqual(spec.containers[0]!.args, ['--v=4', '--stderrthreshold=info', '--reload-cert']);
  assert.equal(spec.volumes![0]!.secret!.secretName, 'vpa-tls-certs');
  assert.equal(spec.securityContext!.runAsUser, 65534);
  assert.equal(d.metadata!.namespace, 'kube-system');
});

test('upstreamDeployment: a container naming an image the lane did not import is refused, as is another kind', () => {
  assert.throws(
    () => upstreamDeployment(DEPLOYMENT, ['registry.k8s.io/autoscaling/vpa-updater:1.8.1']),
    /container wait runs registry.k8s.io\/autoscaling\/vpa-admission-controller:1.8.1, not one of the images the lane imported/,
  );
  assert.throws(
    () => upstreamDeployment('apiVersion: v1\nkind: Service\nmetadata: {name: vpa-webhook}\n', IMAGES),
    /expected a Deployment, got Service vpa-webhook/,
  );
});
