// A bounded memo for pure functions of a string that run once per request (URL parsing and joining):
// a query file asks the same few addresses thousands of times. Cleared whole when full, so it never
// holds more than `limit` entries and never answers wrong; a computation that throws is not kept.

export class BoundedMemo<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly limit: number) {}

  get(key: string, compute: () => V): V {
    let value = this.entries.get(key);
    if (value === undefined && !this.entries.has(key)) {
      value = compute();
      if (this.entries.size >= this.limit) this.entries.clear();
      this.entries.set(key, value);
    }
    return value as V;
  }
}
