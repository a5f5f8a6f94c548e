/**
 * Finds the VerticalPodAutoscaler objects in a YAML or JSON text (several `---` documents, and
 * `kind: List` items as `kubectl get -o yaml` writes them) and validates each. Other kinds are
 * skipped and listed, so a manifest that holds a Deployment and its VPA can be checked as it is;
 * so is a document without `kind` that is not shaped like a Kubernetes object (a kube-sim
 * scenario, a values file). An extra check (the cli passes the `tailor.dev/` annotation check)
 * adds its problems to each VPA's. Pure: the text comes in, results come out.
 */
import { isPlainObject, type FieldError } from './field-errors.ts';
import { validateVpa } from './validate-vpa.ts';
import { parseManifestText } from './manifest-text.ts';
import { VPA_KIND } from './vpa.ts';

/** One object checked: its `kind/name` and its problems (none when valid). */
export interface CheckedObject {
  /** `VerticalPodAutoscaler/web`, or `VerticalPodAutoscaler/(document 2)` without a name. */
  ref: string;
  errors: FieldError[];
}

/** The outcome for one text: binary data, a syntax error or a document that is not an object makes the whole text unreadable. */
export type DocumentsCheck = { readable: true; objects: CheckedObject[]; skipped: string[] } | { readable: false; error: string };

/** The top-level fields of a Kubernetes object; a document without `kind` and with others is no VPA. */
const OBJECT_FIELDS = new Set(['apiVersion', 'kind', 'metadata', 'spec', 'status']);

/**
 * Validates every VPA in the text; `skipped` names the other documents (`Deployment/web`,
 * `(document 1)`). A document without a kind is taken as a VPA missing its kind when it has only
 * the fields of a Kubernetes object.
 */
export function checkVpaDocuments(text: string, extraCheck?: ExtraCheck): DocumentsCheck {
  const parsed = parseManifestText(text);
  if (!parsed.ok) return { readable: false, error: parsed.error };
  const objects: CheckedObject[] = [];
  const skipped: string[] = [];
  for (const { index, value } of parsed.documents) collect(value, `document ${index}`, objects, skipped, extraCheck);
  return { readable: true, objects, skipped };
}

/** More checks of a VPA beyond `validateVpa` (e.g. its `tailor.dev/` annotations): its problems. */
export type ExtraCheck = (object: unknown) => FieldError[];

function collect(value: unknown, where: string, out: CheckedObject[], skipped: string[], extraCheck?: ExtraCheck): void {
  if (value === null || value === undefined) return; // an empty item
  if (!isPlainObject(value)) {
    out.push({ ref: `(${where})`, errors: [{ path: '', message: 'the item is not an object' }] });
    return;
  }
  const kind = value.kind;
  if (typeof kind === 'string' && kind.endsWith('List') && Array.isArray(value.items)) {
    value.items.forEach((item, i) => collect(item, `${where}, item ${i + 1}`, out, skipped, extraCheck));
    return;
  }
  const metadata = isPlainObject(value.metadata) ? value.metadata : {};
  if (kind !== undefined && kind !== VPA_KIND) {
    skipped.push(`${String(kind)}/${typeof metadata.name === 'string' ? metadata.name : `(${where})`}`);
    return;
  }
  if (kind === undefined && Object.keys(value).some((key) => !OBJECT_FIELDS.has(key))) {
    skipped.push(`(${where}: no kind, not shaped like a Kubernetes object)`);
    return;
  }
  const name = typeof metadata.name === 'string' && metadata.name !== '' ? metadata.name : `(${where})`;
  const result = validateVpa(value);
  out.push({ ref: `${VPA_KIND}/${name}`, errors: [...(result.ok ? [] : result.errors), ...(extraCheck?.(value) ?? [])] });
}
