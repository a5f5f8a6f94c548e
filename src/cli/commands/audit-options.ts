/**
 * The parsed options of `tailor audit`, shared by its declaration (audit.ts) and its work
 * (audit-action.ts, loaded when the command runs) without either importing the other.
 */
import type { StoreSpec } from '../../report/audit/store-spec.ts';
import type { RecommendSourceOptions } from '../recommend-source-options.ts';
import type { PriceOptions } from '../price-options.ts';

export const AUDIT_FORMATS = ['html', 'json'] as const;

/** The parsed options of `tailor audit`. */
export interface AuditOptions extends RecommendSourceOptions, PriceOptions {
  format: (typeof AUDIT_FORMATS)[number];
  output?: string;
  outputDir?: string;
  previous?: string;
  store?: StoreSpec;
  chartPoints: number;
  keepReports?: number;
}
