/** The output formats of `tailor recommend` (a file of its own: the CLI lists them without loading the renderers). */
export const REPORT_FORMATS = ['table', 'json', 'yaml', 'csv', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
