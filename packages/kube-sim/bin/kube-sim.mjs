#!/usr/bin/env node
// Entry point: registers tsx so the TypeScript sources run as they are (no build step), then starts kube-sim.
import { register } from 'tsx/esm/api';

register();
const { runKubeSimCli } = await import('../src/cli.ts');
process.exitCode = await runKubeSimCli(process.argv.slice(2));
