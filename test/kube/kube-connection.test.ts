import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { connectKube, KubeConnectionError } from '../../src/kube/kube-connection.ts';
import { startSim } from 'kube-sim/test/apiserver/sim-fixture';

function kubeconfigText(name: string, server: string, namespace = 'default'): string {
  return `apiVersion: v1
kind: Config
clusters: [{ name: ${name}, cluster: { server: '${server}' } }]
users: [{ name: ${name}-user, user: { token: t } }]
contexts: [{ name: ${name}, context: { cluster: ${name}, user: ${name}-user, namespace: ${namespace} } }]
current-context: ${name}
`;
}

function workspace(t: { after: (fn: () => void) => void }) {
  const dir = mkdtempSync(join(tmpdir(), 'tailor-kubeconn-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const write = (rel: string, text: string) => {
    const path = join(dir, rel);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
    return path;
  };
  return { dir, write };
}

test('order: --kubeconfig, then KUBECONFIG, then the service account, then ~/.kube/config', (t) => {
  const { dir, write } = workspace(t);
  const flag = write('flag.yaml', kubeconfigText('flag', 'https://flag:6443'));
  const envA = write('a.yaml', kubeconfigText('env-a', 'https://a:6443', 'team-a'));
  const envB = write('b.yaml', kubeconfigText('env-b', 'https://b:6443'));
  write('home/.kube/config', kubeconfigText('home', 'https://home:6443'));
  write('sa/token', 'sa-token');
  write('sa/namespace', 'tailor-system\n');
  const base = { homeDir: join(dir, 'home'), serviceAccountDir: join(dir, 'sa') };
  const inClusterEnv = { KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' };

  const c1 = connectKube({ ...base, kubeconfig: flag, env: { KUBECONFIG: envA, ...inClusterEnv } });
  assert.deepEqual([c1.source, c1.kubeConfig.getCurrentCluster()?.server], ['flag', 'https://flag:6443']);

  const c2 = connectKube({ ...base, env: { KUBECONFIG: `${envA}:${envB}`, ...inClusterEnv } });
  assert.deepEqual([c2.source, c2.kubeConfig.getCurrentCluster()?.server, c2.namespace], ['KUBECONFIG', 'https://a:6443', 'team-a']);
  assert.deepEqual(
    c2.kubeConfig.getContexts().map((c) => c.name),
    ['env-a', 'env-b'],
    'the files are merged',
  );

  const c3 = connectKube({ ...base, env: inClusterEnv });
  assert.deepEqual([c3.source, c3.kubeConfig.getCurrentCluster()?.server, c3.namespace], ['in-cluster', 'https://10.0.0.1:443', 'tailor-system']);

  const c4 = connectKube({ ...base, env: {} });
  assert.deepEqual([c4.source, c4.kubeConfig.getCurrentCluster()?.server], ['home', 'https://home:6443']);
  assert.match(c4.description, /home\/\.kube\/config, context home, server https:\/\/home:6443$/);
});

test('--kube-context selects a context; an unknown one is named with the ones that exist', (t) => {
  const { dir, write } = workspace(t);
  const a = write('a.yaml', kubeconfigText('one', 'https://one:6443'));
  const b = write('b.yaml', kubeconfigText('two', 'https://two:6443'));
  const c = connectKube({ env: { KUBECONFIG: `${a}:${b}` }, context: 'two', homeDir: dir });
  assert.equal(c.kubeConfig.getCurrentCluster()?.server, 'https://two:6443');
  assert.throws(() => connectKube({ env: { KUBECONFIG: a }, context: 'three' }), /--kube-context three: no such context in .* \(has: one\)/);
});

test('nothing found: the error lists every source tried; an explicit choice that fails does not fall back', (t) => {
  const { dir, write } = workspace(t);
  write('home/.kube/config', kubeconfigText('home', 'https://home:6443'));
  assert.throws(
    () => connectKube({ env: {}, homeDir: join(dir, 'nobody'), serviceAccountDir: join(dir, 'sa') }),
    (err: Error) => {
      assert.ok(err instanceof KubeConnectionError);
      assert.match(err.message, /--kubeconfig: not given/);
      assert.match(err.message, /KUBECONFIG: not set/);
      assert.match(err.message, /KUBERNETES_SERVICE_HOST\/KUBERNETES_SERVICE_PORT not set/);
      assert.match(err.message, /nobody\/\.kube\/config: does not exist/);
      return true;
    },
  );
  assert.throws(
    () => connectKube({ kubeconfig: join(dir, 'missing.yaml'), env: {}, homeDir: join(dir, 'home') }),
    /--kubeconfig .*missing\.yaml: no such file/,
  );
  assert.throws(
    () => connectKube({ env: { KUBECONFIG: join(dir, 'gone.yaml') }, homeDir: join(dir, 'home') }),
    /KUBECONFIG=.*gone\.yaml: none of its files exists/,
  );
  const broken = write('broken.yaml', 'clusters: [unclosed');
  assert.throws(() => connectKube({ kubeconfig: broken, env: {} }), /--kubeconfig: cannot read kubeconfig/);
  assert.throws(
    () => connectKube({ env: { KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' }, serviceAccountDir: join(dir, 'sa') }),
    /in-cluster: .*sa\/token does not exist/,
  );
});

test('the in-cluster connection really talks to a server with the mounted token and CA', async (t) => {
  const sim = await startSim();
  t.after(() => sim.close());
  const { dir, write } = workspace(t);
  write('sa/token', sim.server.adminToken);
  write('sa/ca.crt', sim.server.certificateAuthority!.certPem);
  const url = new URL(sim.server.url);
  const c = connectKube({ env: { KUBERNETES_SERVICE_HOST: url.hostname, KUBERNETES_SERVICE_PORT: url.port }, serviceAccountDir: join(dir, 'sa') });
  assert.equal(c.source, 'in-cluster');
  const ns = await c.kubeConfig.makeApiClient(k8s.CoreV1Api).readNamespace({ name: 'kube-system' });
  assert.equal(ns.metadata?.name, 'kube-system');
});
