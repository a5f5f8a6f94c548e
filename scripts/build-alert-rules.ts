/**
 * `npm run rules:build`: writes the early memory warnings (src/dashboard/memory-alert-rules.ts) as a
 * plain Prometheus rule file and as a PrometheusRule under manifests/monitoring/.
 * test/dashboard/memory-alert-rules.test.ts keeps the files equal to the code and runs
 * `promtool test rules` on them.
 */
import { writeFileSync } from 'node:fs';
import { PROMETHEUS_RULE_FILE, prometheusRuleText, RULES_FILE, rulesFileText } from '../src/dashboard/memory-alert-rules.ts';

writeFileSync(RULES_FILE, rulesFileText());
writeFileSync(PROMETHEUS_RULE_FILE, prometheusRuleText());
console.log(`wrote ${RULES_FILE} and ${PROMETHEUS_RULE_FILE}`);
