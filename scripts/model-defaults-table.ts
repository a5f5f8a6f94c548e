// Prints docs/recommender-model.md's table of recommendation-model defaults, generated from MODEL_DEFAULTS.
// Usage: node --import tsx scripts/model-defaults-table.ts
import { modelDefaultsTable } from '../src/model/model-defaults-table.ts';

console.log(modelDefaultsTable());
