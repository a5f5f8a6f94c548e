#!/usr/bin/env node
// Entry point: registers tsx so the TypeScript sources run as they are (no build step), then starts the CLI.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv);
