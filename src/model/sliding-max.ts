/**
 * The maximum over a sliding time window in O(1) amortised per sample: a monotonic queue keeps
 * only samples that could still become the maximum (each smaller than the one before it), in
 * growable typed-array rings.
 */
export class SlidingMax {
  private readonly windowMs: number;
  private times = new Float64Array(64);
  private values = new Float64Array(64);
  private head = 0;
  private size = 0;

  constructor(windowMs: number) {
    this.windowMs = windowMs;
  }

  /** Adds `value` at `at` (ms, non-decreasing) and drops samples at or before at - window. */
  add(value: number, at: number): void {
    this.expire(at);
    const cap = this.times.length;
    // Pop smaller-or-equal values from the back: they can never be the maximum again.
    while (this.size > 0 && (this.values[(this.head + this.size - 1) % cap] ?? 0) <= value) this.size--;
    if (this.size === cap) this.grow();
    const slot = (this.head + this.size) % this.times.length;
    this.times[slot] = at;
    this.values[slot] = value;
    this.size++;
  }

  /** Drops samples at or before `now - window`. */
  expire(now: number): void {
    const oldest = now - this.windowMs;
    const cap = this.times.length;
    while (this.size > 0 && (this.times[this.head] ?? 0) <= oldest) {
      this.head = (this.head + 1) % cap;
      this.size--;
    }
  }

  /** The maximum of the window, or undefined when empty. */
  value(): number | undefined {
    return this.size === 0 ? undefined : this.values[this.head];
  }

  private grow(): void {
    const cap = this.times.length;
    const times = new Float64Array(cap * 2);
    const values = new Float64Array(cap * 2);
    for (let i = 0; i < this.size; i++) {
      const from = (this.head + i) % cap;
      times[i] = this.times[from] ?? 0;
      values[i] = this.values[from] ?? 0;
    }
    this.times = times;
    this.values = values;
    this.head = 0;
  }
}
