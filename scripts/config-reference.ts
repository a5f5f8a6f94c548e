// Writes docs/configuration.md from the option table (npm run docs:config).
import { writeFileSync } from 'node:fs';
import { RUN_REFERENCE_PATH, runConfigurationReference } from '../src/config/run-config-reference.ts';

writeFileSync(RUN_REFERENCE_PATH, runConfigurationReference());
console.log(`wrote ${RUN_REFERENCE_PATH}`);
