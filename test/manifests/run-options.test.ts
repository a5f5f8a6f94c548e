/**
 * The flags and TAILOR_* variables the Deployments pass to `tailor run` are options of its table
 * (src/controller/run-config.ts), with values its types and checks accept, so a renamed option breaks
 * this test rather than a pod at start-up.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RUN_OPTIONS } from '../../src/controller/run-config.ts';
import type { AnyOptionSpec } from '../../src/config/option-spec.ts';
import { render } from './kustomize.ts';

const rows = Object.values(RUN_OPTIONS) as AnyOptionSpec[];

/** The value's problem under a row's type and check, or undefined. */
function problem(row: AnyOptionSpec, text: string): string | undefined {
  try {
    return row.check?.(row.type.parse(text));
  } catch (err) {
    return (err as Error).message;
  }
}

interface Container {
  args: string[];
  env?: { name: string; value?: string; valueFrom?: { fieldRef?: { fieldPath: string } } }[];
}

test('every flag and TAILOR_* variable of the Deployments is a run option with an accepted value', async () => {
  const { objects } = await render('base');
  const configMap = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('tailor-config-')) as unknown as { data: Record<string, string> };
  const checked: string[] = [];
  for (const d of objects.filter((o) => o.kind === 'Deployment')) {
    const container = (d as unknown as { spec: { template: { spec: { containers: Container[] } } } }).spec.template.spec.containers[0]!;
    const [command, ...flags] = container.args;
    assert.equal(command, 'run');
    for (let i = 0; i < flags.length; i++) {
      const flag = flags[i]!.replace(/^--/, '');
      const row = rows.find((r) => r.flag === flag || (r.type.name === 'boolean' && `no-${r.flag}` === flag));
      assert.ok(row, `${d.metadata.name}: --${flag} is not an option of tailor run`);
      if (row.type.name !== 'boolean') {
        const value = flags[++i] ?? '';
        assert.equal(problem(row, value), undefined, `${d.metadata.name}: --${flag} ${value}`);
      }
      checked.push(`--${flag}`);
    }
    const env: [string, string][] = [
      ...Object.entries(configMap.data),
      ...(container.env ?? []).map((e): [string, string] => [
        e.name,
        e.value ?? (e.valueFrom?.fieldRef?.fieldPath === 'metadata.namespace' ? 'tailor-system' : ''),
      ]),
    ];
    for (const [name, value] of env.filter(([n]) => n.startsWith('TAILOR_'))) {
      const row = rows.find((r) => r.env === name);
      assert.ok(row, `${d.metadata.name}: ${name} is not an option of tailor run`);
      assert.equal(problem(row, value), undefined, `${d.metadata.name}: ${name}=${value}`);
      checked.push(name);
    }
  }
  // All three components and the shared settings were looked at.
  for (const name of ['--components', '--no-leader-elect', 'TAILOR_LEASE_NAMESPACE', 'TAILOR_ADMISSION_NAMESPACE', 'TAILOR_PROMETHEUS_URL', 'TAILOR_LOG_LEVEL'])
    assert.ok(checked.includes(name), name);
  assert.equal(checked.filter((n) => n === '--components').length, 3);
});
