/**
 * Finds the VerticalPodAutoscaler objects in a YAML or JSON text (several `---` documents, and
 * `kind: List` items as `kubectl get -o yaml` writes them) and validates each. Other kinds are
 * skipped, so a manifest that holds a Deployment and its VPA can be checked as it is. Pure: the
 * text comes in, results come out.
 */
import { parseAllDocuments } from 'yaml';
import { isPlainObject, type FieldError } from './field-errors.ts';
import { validateVpa } from './validate-vpa.ts';
import { VPA_KIND } from './vpa.ts';

/** One object checked: its `kind/name` and its problems (none when valid). */
export interface CheckedObject {
  /** `VerticalPodAutoscaler/web`, or `VerticalPodAutoscaler/(document 2)` without a name. */
  ref: string;
  errors: FieldError[];
}

/** The outcome for one text: a syntax error makes the whole text unreadable. */
export type DocumentsCheck = { readable: true; objects: CheckedObject[] } | { readable: false; error: string };

/** Validates every VPA in the text. A document without a kind is taken as a VPA missing its kind. */
export function checkVpaDocuments(text: string): DocumentsCheck {
  const documents = parseAllDocuments(text);
  const objects: CheckedObject[] = [];
  let index = 0;
  for (const doc of documents) {
    index += 1;
    const syntax = doc.errors[0];
    if (syntax) return { readable: false, error: `document ${index}: ${syntax.message.split('\n')[0]}` };
    collect(doc.toJS() as unknown, `document ${index}`, objects);
  }
  return { readable: true, objects };
}

function collect(value: unknown, where: string, out: CheckedObject[]): void {
  if (value === null || value === undefined) return; // an empty document
  if (!isPlainObject(value)) {
    out.push({ ref: `(${where})`, errors: [{ path: '', message: 'the document is not an object' }] });
    return;
  }
  const kind = value.kind;
  if (typeof kind === 'string' && kind.endsWith('List') && Array.isArray(value.items)) {
    value.items.forEach((item, i) => collect(item, `${where}, item ${i + 1}`, out));
    return;
  }
  if (kind !== undefined && kind !== VPA_KIND) return;
  const metadata = isPlainObject(value.metadata) ? value.metadata : {};
  const name = typeof metadata.name === 'string' && metadata.name !== '' ? metadata.name : `(${where})`;
  const result = validateVpa(value);
  out.push({ ref: `${VPA_KIND}/${name}`, errors: result.ok ? [] : result.errors });
}
