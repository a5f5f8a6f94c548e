// Writes docs/configuration.md from the option table, and copies it into the README's
// configuration section (npm run docs:config).
import { readFileSync, writeFileSync } from 'node:fs';
import { README_PATH, RUN_REFERENCE_PATH, runConfigurationReference, withConfigurationReference } from '../src/cli/run-config-reference.ts';

const reference = runConfigurationReference();
writeFileSync(RUN_REFERENCE_PATH, reference);
console.log(`wrote ${RUN_REFERENCE_PATH}`);
writeFileSync(README_PATH, withConfigurationReference(readFileSync(README_PATH, 'utf8'), reference));
console.log(`updated the configuration section of ${README_PATH}`);
