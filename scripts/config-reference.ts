// Rewrites the generated option reference in docs/configuration.md, between its markers, from the
// option table (npm run docs:config). The prose around the markers is kept.
import { readFileSync, writeFileSync } from 'node:fs';
import { RUN_REFERENCE_PATH, runConfigurationReference, withConfigurationReference } from '../src/cli/run-config-reference.ts';

writeFileSync(RUN_REFERENCE_PATH, withConfigurationReference(readFileSync(RUN_REFERENCE_PATH, 'utf8'), runConfigurationReference()));
console.log(`updated the option reference in ${RUN_REFERENCE_PATH}`);
