import type { Plugin } from 'esbuild';

export function markFetchProbePure(source: string): string;
export function readFormDataOnDemand(source: string): string;
export const axiosLazyFetchGlobals: Plugin;
