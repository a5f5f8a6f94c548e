/**
 * Deterministic pseudo-random numbers from a seed and a key, so that a simulation run with the same
 * seed produces the same usage: `unitRandom(seed, "default/web-0/app/cpu", 42)` is always the same
 * number in [0, 1). A 32-bit FNV-1a hash of the inputs is mixed with a murmur3 finaliser.
 */
export function unitRandom(seed: number, key: string, slot: number): number {
  let h = 0x811c9dc5 ^ (seed >>> 0);
  const text = `${key}#${slot}`;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}
