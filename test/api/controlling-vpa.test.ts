import { test } from 'node:test';
import assert from 'node:assert/strict';
import { controllingVpa, controllingVpas, stronger, type VpaOwnerFields } from '../../src/api/controlling-vpa.ts';

const web = { kind: 'Deployment', namespace: 'shop', name: 'web' };

/** A VPA on `kind/name` in `namespace`, created at `created` (omitted: no creationTimestamp). */
function vpa(
  name: string,
  created: string | undefined,
  target: { kind?: string; name?: string; apiVersion?: string } | null = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
  namespace = 'shop',
): VpaOwnerFields {
  return { metadata: { name, namespace, ...(created ? { creationTimestamp: created } : {}) }, spec: target === null ? {} : { targetRef: target } };
}

const T9 = '2026-01-01T09:00:00Z';
const T10 = '2026-01-01T10:00:00Z';

// One row per line, read as a table:
// prettier-ignore
const cases: { name: string; vpas: VpaOwnerFields[]; want: string | undefined }[] = [
  { name: 'none targets the workload', vpas: [vpa('api', T9, { kind: 'Deployment', name: 'api' })], want: undefined },
  { name: 'one VPA', vpas: [vpa('web', T10)], want: 'web' },
  { name: 'the oldest wins, whatever the order given', vpas: [vpa('a', T10), vpa('b', T9), vpa('c', T10)], want: 'b' },
  { name: 'equal timestamps: the name that sorts first', vpas: [vpa('c', T10), vpa('a', T10), vpa('b', T10)], want: 'a' },
  { name: 'names compare by code unit, not locale (upstream compares bytes)', vpas: [vpa('web-b', T10), vpa('web.a', T10), vpa('weba', T10)], want: 'web-b' },
  { name: 'a second in between decides, the name does not', vpas: [vpa('a', '2026-01-01T10:00:01Z'), vpa('z', T10)], want: 'z' },
  { name: 'timestamps compare as times, not text (offsets)', vpas: [vpa('a', T10), vpa('b', '2026-01-01T10:30:00+01:00')], want: 'b' },
  { name: 'a VPA without a targetRef is skipped', vpas: [vpa('no-target', T9, null), vpa('web', T10)], want: 'web' },
  { name: 'another kind of the same name does not count', vpas: [vpa('sts', T9, { kind: 'StatefulSet', name: 'web' }), vpa('web', T10)], want: 'web' },
  { name: 'another namespace does not count', vpas: [vpa('elsewhere', T9, undefined, 'other'), vpa('web', T10)], want: 'web' },
  { name: 'the API group is not compared (as upstream)', vpas: [vpa('custom', T9, { apiVersion: 'example.com/v1', kind: 'Deployment', name: 'web' }), vpa('web', T10)], want: 'custom' },
  { name: 'a missing creationTimestamp is the zero time: it wins (Go)', vpas: [vpa('dated', T9), vpa('undated', undefined)], want: 'undated' },
  { name: 'an unreadable creationTimestamp is the zero time too', vpas: [vpa('dated', T9), vpa('garbled', 'yesterday')], want: 'garbled' },
  { name: 'two without times: by name', vpas: [vpa('y', undefined), vpa('x', undefined)], want: 'x' },
];

for (const c of cases) {
  test(`controllingVpa: ${c.name}`, () => {
    assert.equal(controllingVpa(c.vpas, web)?.metadata?.name, c.want);
    // Every order of the same VPAs gives the same answer (no first-seen wins).
    assert.equal(controllingVpa([...c.vpas].reverse(), web)?.metadata?.name, c.want);
    assert.equal(controllingVpas(c.vpas).get('Deployment/shop/web')?.metadata?.name, c.want);
  });
}

test('stronger: any VPA beats none; a tie on time and name is not stronger (a strict order)', () => {
  assert.equal(stronger(vpa('a', T10), undefined), true);
  assert.equal(stronger(vpa('a', T10), vpa('a', T10)), false);
  assert.equal(stronger(vpa('a', T9), vpa('a', T10)), true);
  assert.equal(stronger(vpa('a', T10), vpa('a', T9)), false);
});

test('Date objects (client-node typed objects) compare like the strings', () => {
  const typed = { metadata: { name: 'z', namespace: 'shop', creationTimestamp: new Date(T9) }, spec: { targetRef: { kind: 'Deployment', name: 'web' } } };
  assert.equal(controllingVpa([vpa('a', T10), typed], web), typed);
});

test('controllingVpas: one owner per workload, workloads told apart by namespace and kind', () => {
  const owners = controllingVpas([
    vpa('web-new', T10),
    vpa('web-old', T9),
    vpa('db', T10, { kind: 'StatefulSet', name: 'web' }),
    vpa('other-ns', T10, undefined, 'other'),
    vpa('no-target', T9, null),
  ]);
  assert.deepEqual(
    [...owners].map(([key, v]) => `${key} ${v.metadata?.name}`),
    ['Deployment/shop/web web-old', 'StatefulSet/shop/web db', 'Deployment/other/web other-ns'],
  );
});

test('a VPA read from a file without a namespace is in default', () => {
  const fromFile = { metadata: { name: 'web' }, spec: { targetRef: { kind: 'Deployment', name: 'web' } } };
  assert.equal(controllingVpa([fromFile], { kind: 'Deployment', namespace: 'default', name: 'web' }), fromFile);
  assert.equal(controllingVpa([fromFile], { kind: 'Deployment', namespace: '', name: 'web' }), fromFile);
  assert.deepEqual([...controllingVpas([fromFile]).keys()], ['Deployment/default/web']);
});
