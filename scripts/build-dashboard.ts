/**
 * `npm run dashboard:build`: writes Tailor's Grafana dashboard (src/dashboard/grafana-dashboard.ts)
 * to manifests/monitoring/grafana-dashboard.json, the file users import and the monitoring
 * kustomization ships as a ConfigMap. test/dashboard/dashboard-file.test.ts keeps the two equal.
 */
import { writeFileSync } from 'node:fs';
import { DASHBOARD_FILE, dashboardFileText } from '../src/dashboard/dashboard-file.ts';

writeFileSync(DASHBOARD_FILE, dashboardFileText());
console.log(`wrote ${DASHBOARD_FILE}`);
