import { test } from 'node:test';
import assert from 'node:assert/strict';
import { legendOf, panelQueries, parseLabelValues, substitute, variableQueries } from '../../src/dashboard/panel-targets.ts';

test('panelQueries lists every target with an expression, rows and collapsed rows included, in order', () => {
  const dashboard = {
    panels: [
      { type: 'row', title: 'r' },
      { type: 'timeseries', title: 'a', targets: [{ refId: 'A', expr: 'up', legendFormat: '{{job}}' }, { refId: 'B' }] },
      { type: 'row', title: 'collapsed', panels: [{ type: 'stat', title: 'b', targets: [{ refId: 'A', expr: 'sum(up)' }] }] },
    ],
  };
  assert.deepEqual(panelQueries(dashboard), [
    { panel: 'a', refId: 'A', expr: 'up', legendFormat: '{{job}}' },
    { panel: 'b', refId: 'A', expr: 'sum(up)', legendFormat: '' },
  ]);
});

test('variables: query variables in order, with their label_values() split', () => {
  const vars = variableQueries({
    templating: {
      list: [
        { name: 'datasource', type: 'datasource', query: 'prometheus' },
        { name: 'namespace', type: 'query', definition: 'label_values(x, namespace)' },
        { name: 'c', type: 'query', multi: true, query: { query: 'label_values(x{namespace="$namespace"}, container)' } },
      ],
    },
  });
  assert.deepEqual(
    vars.map((v) => [v.name, v.multi]),
    [
      ['namespace', false],
      ['c', true],
    ],
  );
  assert.deepEqual(parseLabelValues(vars[1]!.definition), { match: 'x{namespace="$namespace"}', label: 'container' });
  assert.equal(parseLabelValues('query_result(up)'), undefined);
});

test('substitute: single values, multi values as an escaped regex group, intervals; $1 and unknown names stay', () => {
  const values = { namespace: 'shop', container: ['app', 'side.car'], one: ['a+b'] };
  assert.equal(substitute('x{namespace="$namespace", c=~"$container"}', values), 'x{namespace="shop", c=~"(app|side\\.car)"}');
  assert.equal(substitute('x{c=~"${one}"} [[namespace]]', values), 'x{c=~"a\\+b"} shop');
  assert.equal(
    substitute('rate(x[$__rate_interval]) label_replace(y, "w", "$1", "n", "(.+)") $other', values, { __rate_interval: '64s' }),
    'rate(x[64s]) label_replace(y, "w", "$1", "n", "(.+)") $other',
  );
});

test('legendOf fills {{label}} from the series, or lists the labels without a format', () => {
  assert.equal(legendOf('{{ path }} {{outcome}}', { path: 'in-place', outcome: 'applied' }), 'in-place applied');
  assert.equal(legendOf('', { a: '1', b: '2' }), '{a="1", b="2"}');
});
