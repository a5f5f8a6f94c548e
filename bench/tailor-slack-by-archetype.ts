/**
 * `node --import tsx bench/tailor-slack-by-archetype.ts [--per-archetype N] [--variant 'name={...}']...`:
 * where the suite's slack and changes sit, per archetype: each archetype's share of vpa's and each
 * variant's CPU slack, memory slack and changes (slack in core-days / GiB-days, changes per container-day).
 */
import { generateWorkload, EVALUATION_SUITE } from '../src/replay/workload/generator.ts';
import { replayTrace, type StrategyRun } from '../src/replay/replay-engine.ts';
import { createReplayStrategy } from '../src/replay/replay-strategies.ts';
import { tailorVariants, tailorVariantStrategy } from './bench-args.ts';

const argv = process.argv;
const at = argv.indexOf('--per-archetype');
const perArchetype = at >= 0 ? Number(argv[at + 1]) : EVALUATION_SUITE.perArchetype;
const variants = tailorVariants(argv);

interface Sums {
  cpuSlack: number;
  cpuRequest: number;
  cpuShort: number;
  memSlack: number;
  memLimit: number;
  changes: number;
  days: number;
  ooms: number;
}

function byArchetype(run: StrategyRun): Map<string, Sums> {
  const out = new Map<string, Sums>();
  for (const t of run.containers) {
    const key = t.name.replace(/-[^-]*$/, '');
    const s = out.get(key) ?? { cpuSlack: 0, cpuRequest: 0, cpuShort: 0, memSlack: 0, memLimit: 0, changes: 0, days: 0, ooms: 0 };
    s.cpuSlack += t.cpuSlackSum;
    s.cpuRequest += t.cpuRequestSum;
    s.cpuShort += t.cpuShortfallSum;
    s.memSlack += t.memorySlackSum;
    s.memLimit += t.memoryLimitSum;
    s.changes += t.changes;
    s.days += t.days;
    s.ooms += t.ooms;
    out.set(key, s);
  }
  return out;
}

const trace = generateWorkload({ ...EVALUATION_SUITE, perArchetype });
const vpa = byArchetype(replayTrace(trace, createReplayStrategy('vpa')));
const total = (m: Map<string, Sums>, f: keyof Sums): number => [...m.values()].reduce((a, s) => a + s[f], 0);
const vpaCpu = total(vpa, 'cpuSlack');
const vpaMem = total(vpa, 'memSlack');
for (const [name, overrides] of variants) {
  const run = byArchetype(replayTrace(trace, tailorVariantStrategy(overrides, name)));
  console.log(
    `\n## ${name}: CPU slack ${(total(run, 'cpuSlack') / vpaCpu).toFixed(3)} x vpa, memory slack ${(total(run, 'memSlack') / vpaMem).toFixed(3)} x vpa (sums; the published figures divide by the request sums)`,
  );
  console.log('archetype | cpu slack share of vpa total: vpa -> this | cpu short x vpa | mem slack share: vpa -> this | changes/d vpa -> this | ooms');
  for (const [key, s] of run) {
    const v = vpa.get(key)!;
    console.log(
      `${key} | ${(v.cpuSlack / vpaCpu).toFixed(3)} -> ${(s.cpuSlack / vpaCpu).toFixed(3)} | ${(s.cpuShort / v.cpuShort).toFixed(2)} | ${(v.memSlack / vpaMem).toFixed(3)} -> ${(s.memSlack / vpaMem).toFixed(3)} | ${(v.changes / v.days).toFixed(2)} -> ${(s.changes / s.days).toFixed(2)} | ${v.ooms} -> ${s.ooms}`,
    );
  }
}
