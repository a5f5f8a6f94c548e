/**
 * The `pod-template-hash` of a Deployment's template: a stable 10-character string from the
 * template's JSON (FNV-1a 64-bit), in the consonant-and-digit alphabet Kubernetes uses for names.
 * Cached per template object (a pass over 1,000 Deployments otherwise re-hashed every template).
 */
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** Hashes of frozen templates (store objects are frozen and replaced on change, so identity is safe). */
const cache = new WeakMap<object, string>();

export function templateHash(template: unknown): string {
  if (template === null || typeof template !== 'object' || !Object.isFrozen(template)) return computeHash(template);
  let hash = cache.get(template);
  if (hash === undefined) cache.set(template, (hash = computeHash(template)));
  return hash;
}

function computeHash(template: unknown): string {
  let h = 0xcbf29ce484222325n;
  const text = JSON.stringify(template, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
  for (let i = 0; i < text.length; i++) {
    h ^= BigInt(text.charCodeAt(i));
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  let out = '';
  for (let i = 0; i < 10; i++) {
    out += ALPHABET[Number(h % BigInt(ALPHABET.length))];
    h /= BigInt(ALPHABET.length);
  }
  return out;
}
