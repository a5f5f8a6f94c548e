import type { Plugin } from 'esbuild';

export function checkNodeFetchUsesWhatwgUrlAsFallbackOnly(source: string): void;
export const nodeFetchNativeUrl: Plugin;
