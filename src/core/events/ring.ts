// A bounded FIFO: at most `capacity` items and `maxBytes` of their declared size; the oldest go
// first. O(1) push and eviction (a circular array), so a flood costs no more than its bound.

export class RingBuffer<T extends { readonly bytes: number }> {
  private readonly items: (T | undefined)[];
  private head = 0;
  private size = 0;
  private totalBytes = 0;
  /** Items pushed out by newer ones since the start (or the last clear()). */
  evicted = 0;

  constructor(
    readonly capacity: number,
    readonly maxBytes: number = Number.POSITIVE_INFINITY,
  ) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError(`ring capacity must be a positive integer, got ${capacity}`);
    this.items = new Array<T | undefined>(capacity);
  }

  get length(): number {
    return this.size;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  push(item: T): void {
    if (this.size === this.capacity) this.shift();
    this.items[(this.head + this.size) % this.capacity] = item;
    this.size++;
    this.totalBytes += item.bytes;
    while (this.totalBytes > this.maxBytes && this.size > 1) this.shift();
  }

  /** The i-th oldest item (0 = oldest). */
  at(i: number): T | undefined {
    if (i < 0 || i >= this.size) return undefined;
    return this.items[(this.head + i) % this.capacity];
  }

  first(): T | undefined {
    return this.at(0);
  }

  /** Items from the i-th oldest to the newest. */
  from(i: number): T[] {
    const out: T[] = [];
    for (let k = Math.max(0, i); k < this.size; k++) out.push(this.items[(this.head + k) % this.capacity] as T);
    return out;
  }

  toArray(): T[] {
    return this.from(0);
  }

  clear(): void {
    this.items.fill(undefined);
    this.head = 0;
    this.size = 0;
    this.totalBytes = 0;
    this.evicted = 0;
  }

  private shift(): void {
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head = (this.head + 1) % this.capacity;
    this.size--;
    this.totalBytes -= item?.bytes ?? 0;
    this.evicted++;
  }
}
