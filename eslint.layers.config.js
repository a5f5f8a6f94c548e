// The layer rule: imports between the folders of src/ run one way (docs/architecture.md). Part of
// `npm run lint`; `npm run lint:layers` runs it alone (fast: no type information needed).
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

/** The folders of src/, top layer first; a folder may import its own layer and the layers below. */
export const LAYERS = [
  ['cli'],
  ['demo', 'dashboard'],
  ['controller'],
  ['updater', 'admission', 'replay', 'report', 'recommender'],
  ['metrics', 'kube', 'local-prometheus'],
  ['model'],
  ['api', 'policy', 'config', 'observability'],
];

/**
 * The only files of src/ that may use kube-sim (the simulated cluster): `tailor demo` and `tailor
 * sim`, and the dashboard lab (run by scripts and tests, no command loads it). Tests and benches may
 * too. `tailor run`, `audit`, `plan` and the rest never load it (decision 0290).
 */
export const KUBE_SIM_USERS = ['src/demo/**', 'src/cli/commands/demo*.ts', 'src/cli/commands/sim.ts', 'src/dashboard/dashboard-lab.ts'];

const upward = LAYERS.flatMap((layer, i) =>
  i === 0
    ? []
    : [
        {
          target: layer.map((f) => `./src/${f}`),
          from: LAYERS.slice(0, i)
            .flat()
            .map((f) => `./src/${f}`),
          message: `src/{${layer.join(',')}} may import only its own layer and the layers below (docs/architecture.md).`,
        },
      ],
);

const kubeSim = {
  group: ['kube-sim', 'kube-sim/*'],
  message: 'Only tailor demo and tailor sim (src/demo, src/cli/commands/demo*.ts, sim.ts) and the dashboard lab use kube-sim (docs/architecture.md).',
};

export default [
  { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, plugins: { '@typescript-eslint': tseslint.plugin } },
  {
    files: ['src/**/*.ts', 'packages/**/*.ts', 'packages/**/*.mjs'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver()],
      'import-x/extensions': ['.ts', '.mjs', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...upward,
            {
              target: './packages',
              from: ['./src', './test', './bench', './scripts'],
              message: 'The workspace packages need nothing from Tailor (docs/decisions/0170-kube-sim-package.md).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: KUBE_SIM_USERS,
    rules: { 'no-restricted-imports': ['error', { patterns: [kubeSim] }] },
  },
  {
    files: ['packages/kube-basics/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['kube-sim', 'kube-sim/*'], message: 'kube-basics is below kube-sim.' }] }] },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./)+packages/', message: 'Import the workspace packages by name (kube-sim, kube-basics), not by a path into packages/.' },
          ],
        },
      ],
    },
  },
];
