// A set of listeners of one value (the core's own tiny event: no vscode import). Each listener is
// called with what is emitted; one that throws is reported and the others still run.

import { errorMessage } from './errors';

export class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();

  constructor(
    /** Where a listener's failure goes (`what` names the listener's kind in the message). */
    private readonly onError: (message: string) => void,
    private readonly what: string,
  ) {}

  add(listener: (value: T) => void): { dispose(): void } {
    this.set.add(listener);
    return { dispose: () => void this.set.delete(listener) };
  }

  /** Calls every listener (those added while emitting wait for the next value). */
  emit(value: T): void {
    for (const listener of [...this.set]) {
      try {
        listener(value);
      } catch (err) {
        this.onError(`${this.what} threw: ${errorMessage(err)}`);
      }
    }
  }

  clear(): void {
    this.set.clear();
  }
}
