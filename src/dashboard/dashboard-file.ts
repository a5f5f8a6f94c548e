/** Where the dashboard JSON lives in the repository, and its exact text (2-space JSON, final newline). */
import { fileURLToPath } from 'node:url';
import { tailorDashboard } from './grafana-dashboard.ts';

export const DASHBOARD_FILE = fileURLToPath(new URL('../../manifests/monitoring/grafana-dashboard.json', import.meta.url));

export function dashboardFileText(): string {
  return `${JSON.stringify(tailorDashboard(), null, 2)}\n`;
}
