/**
 * The documents of a YAML or JSON manifest text (several `---` documents), or why the text is not
 * one: binary data, a syntax error, or a document that is not an object (a line of prose, random
 * bytes that happen to parse as a YAML string). Empty documents are left out. Shared by every
 * command that reads manifests (`validate`, `plan`), so none of them reads garbage as "nothing
 * found".
 */
import { parseAllDocuments } from 'yaml';
import { isPlainObject } from './field-errors.ts';

/** A document's top-level object and its 1-based position in the text. */
export interface ManifestDocument {
  index: number;
  value: Record<string, unknown>;
}

export type ManifestText = { ok: true; documents: ManifestDocument[] } | { ok: false; error: string };

/** What a non-object document is, in words: `a string`, `a list`, `a number`. */
function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'string' ? 'a string' : `a ${typeof value}`;
}

/**
 * Splits and parses the text. Worked example: `"\u0000\u0001..."` -> `not YAML or JSON: binary
 * data`; `hello world` -> `not YAML or JSON objects: document 1 is a string, not an object`.
 */
export function parseManifestText(text: string): ManifestText {
  // A NUL byte, or bytes that are not UTF-8 (decoded as U+FFFD), never occur in a manifest.
  if (text.includes('\u0000') || text.includes('\uFFFD')) return { ok: false, error: 'not YAML or JSON: binary data' };
  const documents: ManifestDocument[] = [];
  let index = 0;
  for (const doc of parseAllDocuments(text)) {
    index += 1;
    const syntax = doc.errors[0];
    if (syntax) return { ok: false, error: `document ${index}: ${syntax.message.split('\n')[0]}` };
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) continue; // an empty document
    if (!isPlainObject(value)) return { ok: false, error: `not YAML or JSON objects: document ${index} is ${kindOf(value)}, not an object` };
    documents.push({ index, value });
  }
  return { ok: true, documents };
}
