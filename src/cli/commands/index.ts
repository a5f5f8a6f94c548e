/**
 * The list of CLI commands. Each entry adds one subcommand to the program; `tailor --help` lists
 * them in this order with their one-line descriptions. Each command lives in its own file.
 */
import type { RegisterCommand } from '../program.ts';
import { registerAudit } from './audit.ts';
import { registerDemo } from './demo.ts';
import { registerGenerateTrace } from './generate-trace.ts';
import { registerPlan } from './plan.ts';
import { registerRecommend } from './recommend.ts';
import { registerReplay } from './replay.ts';
import { registerRun } from './run.ts';
import { registerSimCommand } from './sim.ts';
import { registerValidate } from './validate.ts';

/** Every command, in the order `tailor --help` lists them. */
export const commands: readonly RegisterCommand[] = [
  registerDemo,
  registerRecommend,
  registerAudit,
  registerReplay,
  registerGenerateTrace,
  registerPlan,
  registerSimCommand,
  registerValidate,
  registerRun,
];
