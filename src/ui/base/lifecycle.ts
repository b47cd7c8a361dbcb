// One base for every editor-side part that owns disposables: register each as it is made,
// dispose them all (last first) once. A disposable registered after dispose() is disposed at once.

import type * as vscode from 'vscode';

export abstract class Disposable implements vscode.Disposable {
  private readonly registered: vscode.Disposable[] = [];
  private disposed = false;

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  /** Keeps `d` (and `more`) until this part is disposed; returns `d`. */
  protected _register<T extends vscode.Disposable>(d: T, ...more: vscode.Disposable[]): T {
    for (const x of [d, ...more]) {
      if (this.disposed) x.dispose();
      else this.registered.push(x);
    }
    return d;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.registered.splice(0).reverse()) {
      try {
        d.dispose();
      } catch {
        // one failing disposable must not keep the others alive
      }
    }
  }
}
