/** Where the dashboard JSON lives in the repository, and its exact text (2-space JSON, final newline). */
import { packageFile } from '../api/package-files.ts';
import { tailorDashboard } from './grafana-dashboard.ts';

export const DASHBOARD_FILE = packageFile('manifests/monitoring/grafana-dashboard.json');

export function dashboardFileText(): string {
  return `${JSON.stringify(tailorDashboard(), null, 2)}\n`;
}
