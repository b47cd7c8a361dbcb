// A minimal `vscode` for unit tests of ui handlers (`import vscode = require('vscode')`), which plain
// Node cannot load. Importing this file (before the handler) hooks Node's module resolution so that
// `require('vscode')` answers this stub. It implements only what the handlers under test touch:
//   l10n.t ({0} and {name} filled, English), Uri (file, from, parse, joinPath, with, toString, fsPath),
//   MarkdownString (appendMarkdown, isTrusted, supportThemeIcons), Hover, EventEmitter, Disposable, CancellationTokenSource, ProgressLocation, ConfigurationTarget,
//   workspace.getConfiguration(section) over `vscodeStub.configure()` (get, inspect, update),
//   workspace.isTrusted (settable), workspace.onDidChangeConfiguration (fired by update()),
//   window.* only as a test scripts it (`vscodeStub.script({...})`); an unscripted one throws.
// Anything else throws "not in the vscode stub" when touched (a Proxy): a handler that starts
// using more of the API fails its unit test loudly rather than reading undefined. Behaviour that
// needs the real editor (documents, trees, webviews, the workbench) belongs in an in-editor test.
//
//   import { vscodeStub } from '../../helpers/vscodeStub'; // first: before any src/ui import
//   beforeEach(() => vscodeStub.reset({ user: { providers: [...] } }));

import Module = require('node:module');
import { format } from '../../../src/core/base/l10n';

/** A name a Proxy answers with undefined because module machinery (not a handler) probes it. */
const PROBES = new Set<string | symbol>(['then', '__esModule']);

/** An object whose unknown properties throw when read, naming what was touched. */
function strict<T extends object>(name: string, known: T): T {
  return new Proxy(known, {
    get(target, key, receiver) {
      if (typeof key === 'symbol' || PROBES.has(key) || key in target) return Reflect.get(target, key, receiver) as unknown;
      throw new Error(
        `vscode.${name}${name ? '.' : ''}${key} is not in the vscode stub (test/unit/helpers/vscodeStub.ts): implement it there, or test this in the editor`,
      );
    },
    set(_target, key) {
      throw new Error(`vscode.${name}${name ? '.' : ''}${String(key)} cannot be set: the vscode stub's state is changed through vscodeStub`);
    },
  });
}

// ---- values --------------------------------------------------------------------------------------

export class Disposable {
  private done = false;
  constructor(private readonly onDispose: () => unknown) {}
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((i) => i.dispose()));
  }
  dispose(): void {
    if (this.done) return;
    this.done = true;
    this.onDispose();
  }
}

type Listener<T> = (e: T) => unknown;

export class EventEmitter<T> {
  private listeners = new Set<Listener<T>>();
  private disposed = false;
  readonly event = (listener: Listener<T>, thisArg?: unknown, disposables?: { dispose(): unknown }[]): Disposable => {
    const bound: Listener<T> = (e) => listener.call(thisArg, e);
    this.listeners.add(bound);
    const d = new Disposable(() => this.listeners.delete(bound));
    disposables?.push(d);
    return d;
  };
  fire(e: T): void {
    if (this.disposed) return;
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
  }
}

export class CancellationTokenSource {
  private readonly emitter = new EventEmitter<void>();
  private cancelled = false;
  readonly token: { readonly isCancellationRequested: boolean; onCancellationRequested: EventEmitter<void>['event'] };
  constructor() {
    const isCancelled = () => this.cancelled;
    this.token = {
      get isCancellationRequested() {
        return isCancelled();
      },
      onCancellationRequested: this.emitter.event,
    };
  }
  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.emitter.fire();
  }
  dispose(): void {
    this.emitter.dispose();
  }
}

interface UriParts {
  scheme: string;
  authority?: string;
  path?: string;
  query?: string;
  fragment?: string;
}

/** vscode.Uri's shape. toString() percent-encodes each path segment, the query and the fragment (encodeURIComponent, '/' kept in the path, '&' and '=' in the query). */
export class Uri {
  readonly scheme: string;
  readonly authority: string;
  readonly path: string;
  readonly query: string;
  readonly fragment: string;
  private constructor(p: UriParts) {
    if (!/^[a-zA-Z][\w+.-]*$/.test(p.scheme)) throw new Error(`[UriError]: Scheme contains illegal characters: "${p.scheme}"`);
    this.scheme = p.scheme;
    this.authority = p.authority ?? '';
    const path = p.path ?? '';
    this.path = (this.authority || p.scheme === 'file') && path && !path.startsWith('/') ? `/${path}` : path;
    this.query = p.query ?? '';
    this.fragment = p.fragment ?? '';
  }
  static file(path: string): Uri {
    return new Uri({ scheme: 'file', path: path.replace(/\\/g, '/') });
  }
  static from(p: UriParts): Uri {
    return new Uri(p);
  }
  static parse(value: string): Uri {
    const m = /^(([^:/?#]+?):)?(\/\/([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?/.exec(value);
    if (!m?.[2]) throw new Error(`[UriError]: Scheme is missing: {scheme: "", path: "${value}"}`);
    const d = (s: string | undefined) => (s === undefined ? '' : decodeURIComponent(s));
    return new Uri({ scheme: m[2], authority: d(m[4]), path: d(m[5]), query: d(m[7]), fragment: d(m[9]) });
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    const parts = [base.path, ...segments].join('/').split('/');
    const out: string[] = [];
    for (const s of parts) {
      if (s === '..') out.pop();
      else if (s !== '.' && s !== '') out.push(s);
    }
    return base.with({ path: `/${out.join('/')}` });
  }
  get fsPath(): string {
    return this.authority && this.scheme === 'file' ? `//${this.authority}${this.path}` : this.path;
  }
  with(change: Partial<UriParts>): Uri {
    return new Uri({ scheme: this.scheme, authority: this.authority, path: this.path, query: this.query, fragment: this.fragment, ...change });
  }
  toString(): string {
    const enc = (s: string, keep: RegExp) => encodeURIComponent(s).replace(keep, decodeURIComponent);
    let out = `${this.scheme}:`;
    if (this.authority || this.scheme === 'file') out += `//${enc(this.authority, /%3A/g)}`;
    out += this.path
      .split('/')
      .map((s) => encodeURIComponent(s))
      .join('/');
    if (this.query) out += `?${enc(this.query, /%26|%3D/g)}`;
    if (this.fragment) out += `#${encodeURIComponent(this.fragment)}`;
    return out;
  }
  toJSON(): UriParts {
    return { scheme: this.scheme, authority: this.authority, path: this.path, query: this.query, fragment: this.fragment };
  }
}

/** vscode.MarkdownString's shape: `value` grows by appendMarkdown (taken as is: the handler escapes); `isTrusted` and `supportThemeIcons` as set. */
export class MarkdownString {
  value: string;
  isTrusted?: boolean | { readonly enabledCommands: readonly string[] };
  supportThemeIcons?: boolean;
  constructor(value = '', supportThemeIcons = false) {
    this.value = value;
    this.supportThemeIcons = supportThemeIcons;
  }
  appendMarkdown(value: string): this {
    this.value += value;
    return this;
  }
}

/** vscode.Hover's shape: `contents` always an array, as the editor's. */
export class Hover {
  readonly contents: MarkdownString[];
  constructor(
    contents: MarkdownString | MarkdownString[],
    readonly range?: unknown,
  ) {
    this.contents = Array.isArray(contents) ? contents : [contents];
  }
}

export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}

export enum ConfigurationTarget {
  Global = 1,
  Workspace = 2,
  WorkspaceFolder = 3,
}

// ---- state a test sets ---------------------------------------------------------------------------

/** Settings by full key (`chainEndpoints.providers`), at the user's and the workspace's level. */
export interface StubSettings {
  user?: Record<string, unknown>;
  workspace?: Record<string, unknown>;
}

/** The window functions a test may script (each one it does not script throws when called). */
export type WindowScript = Partial<
  Record<
    | 'showQuickPick'
    | 'showInputBox'
    | 'showInformationMessage'
    | 'showWarningMessage'
    | 'showErrorMessage'
    | 'withProgress'
    | 'setStatusBarMessage'
    | 'showTextDocument',
    (...args: never[]) => unknown
  >
>;

const state = {
  user: new Map<string, unknown>(),
  workspace: new Map<string, unknown>(),
  trusted: true,
  window: {} as WindowScript,
  updates: [] as { key: string; value: unknown; target: ConfigurationTarget | boolean | undefined }[],
};
const configChanged = new EventEmitter<{ affectsConfiguration(section: string): boolean }>();
const trustGranted = new EventEmitter<void>();

function full(section: string | undefined, key: string): string {
  return section ? `${section}.${key}` : key;
}

function configuration(section?: string) {
  return strict('WorkspaceConfiguration', {
    get<T>(key: string, fallback?: T): T | undefined {
      const k = full(section, key);
      const v = state.trusted && state.workspace.has(k) ? state.workspace.get(k) : state.user.get(k);
      return v === undefined ? fallback : (structuredClone(v) as T);
    },
    has(key: string): boolean {
      const k = full(section, key);
      return state.user.has(k) || state.workspace.has(k);
    },
    inspect<T>(key: string) {
      const k = full(section, key);
      return {
        key: k,
        defaultValue: undefined as T | undefined,
        globalValue: structuredClone(state.user.get(k)) as T | undefined,
        workspaceValue: structuredClone(state.workspace.get(k)) as T | undefined,
        workspaceFolderValue: undefined as T | undefined,
      };
    },
    async update(key: string, value: unknown, target?: ConfigurationTarget | boolean): Promise<void> {
      const k = full(section, key);
      state.updates.push({ key: k, value: structuredClone(value), target });
      const level = target === ConfigurationTarget.Global || target === true ? state.user : state.workspace;
      if (value === undefined) level.delete(k);
      else level.set(k, structuredClone(value));
      configChanged.fire({ affectsConfiguration: (s: string) => k === s || k.startsWith(`${s}.`) });
    },
  });
}

function t(...args: unknown[]): string {
  if (typeof args[0] === 'object' && args[0] !== null) {
    const o = args[0] as { message: string; args?: unknown };
    return t(o.message, ...(Array.isArray(o.args) ? o.args : o.args ? [o.args] : []));
  }
  const [message, ...rest] = args as [string, ...unknown[]];
  if (rest.length === 1 && typeof rest[0] === 'object' && rest[0] !== null && !Array.isArray(rest[0])) {
    const named = rest[0] as Record<string, unknown>;
    return message.replace(/\{(\w+)\}/g, (m, k: string) => (k in named ? String(named[k]) : m));
  }
  const flat = rest.length === 1 && Array.isArray(rest[0]) ? (rest[0] as unknown[]) : rest;
  return format(message, ...flat.map((a) => a as string));
}

const windowApi = new Proxy({} as Record<string, unknown>, {
  get(_target, key) {
    if (typeof key === 'symbol' || PROBES.has(key)) return undefined;
    const scripted = (state.window as Record<string, unknown>)[key];
    if (scripted) return scripted;
    throw new Error(`vscode.window.${key} is not scripted in this test (vscodeStub.script({ ${key}: ... }))`);
  },
});

/** What `require('vscode')` answers. */
export const vscodeApi = strict('', {
  Disposable,
  EventEmitter,
  CancellationTokenSource,
  Uri,
  MarkdownString,
  Hover,
  ProgressLocation,
  ConfigurationTarget,
  l10n: strict('l10n', { t, bundle: undefined, uri: undefined }),
  window: windowApi,
  workspace: strict('workspace', {
    getConfiguration: configuration,
    get isTrusted(): boolean {
      return state.trusted;
    },
    onDidChangeConfiguration: configChanged.event,
    onDidGrantWorkspaceTrust: trustGranted.event,
    /** The stub is a window with no folder open. */
    workspaceFolders: undefined,
    /** No folder open: nothing to find (as the editor answers). */
    async findFiles(): Promise<Uri[]> {
      return [];
    },
    /** No folder open: a watcher that never fires (its events can be listened to and disposed). */
    createFileSystemWatcher() {
      const changed = new EventEmitter<Uri>();
      const created = new EventEmitter<Uri>();
      const deleted = new EventEmitter<Uri>();
      return strict('FileSystemWatcher', {
        onDidChange: changed.event,
        onDidCreate: created.event,
        onDidDelete: deleted.event,
        dispose: () => [changed, created, deleted].forEach((e) => e.dispose()),
      });
    },
  }),
});

/** The test's side: set settings and trust, script the window, read what was written. */
export const vscodeStub = {
  /** Back to nothing set (trusted, no window function scripted), then `settings` (keys relative to nothing: `chainEndpoints.providers`, or use `chainEndpoints`). */
  reset(settings: StubSettings = {}): void {
    state.user.clear();
    state.workspace.clear();
    state.trusted = true;
    state.window = {};
    state.updates.length = 0;
    this.configure(settings);
  },
  /** Sets settings; a key without a dot-qualified section is taken as `chainEndpoints.<key>`. */
  configure(settings: StubSettings): void {
    const key = (k: string) => (k.startsWith('chainEndpoints.') || k.startsWith('http.') ? k : `chainEndpoints.${k}`);
    for (const [k, v] of Object.entries(settings.user ?? {})) state.user.set(key(k), structuredClone(v));
    for (const [k, v] of Object.entries(settings.workspace ?? {})) state.workspace.set(key(k), structuredClone(v));
  },
  /** Whether the workspace is trusted (default true); false → true fires onDidGrantWorkspaceTrust. */
  set trusted(v: boolean) {
    const granted = v && !state.trusted;
    state.trusted = v;
    if (granted) trustGranted.fire();
  },
  get trusted(): boolean {
    return state.trusted;
  },
  /** The window functions this test answers (merged with those already scripted). */
  script(fns: WindowScript): void {
    state.window = { ...state.window, ...fns };
  },
  /** Every configuration update, in order. */
  get updates(): readonly { key: string; value: unknown; target: ConfigurationTarget | boolean | undefined }[] {
    return state.updates;
  },
};

/**
 * A `window.withProgress` that runs the task at once with a token; `cancel` (when given) is called
 * with the token's source so a test can cancel the "notification" as a person would.
 */
export function runningProgress(
  reports: string[] = [],
  cancel?: (source: CancellationTokenSource) => void,
): (options: unknown, task: (p: { report(v: { message?: string }): void }, token: CancellationTokenSource['token']) => Promise<unknown>) => Promise<unknown> {
  return (_options, task) => {
    const source = new CancellationTokenSource();
    cancel?.(source);
    return task({ report: (v) => reports.push(v.message ?? '') }, source.token);
  };
}

// ---- the hook ------------------------------------------------------------------------------------

const STUB_ID = `${__filename}#vscode`;
const loader = Module as unknown as {
  _resolveFilename(request: string, ...rest: unknown[]): string;
  _cache: Record<string, unknown>;
};
if (!(loader._resolveFilename as { vscodeStub?: true }).vscodeStub) {
  const original = loader._resolveFilename;
  const resolve = function (this: unknown, request: string, ...rest: unknown[]): string {
    return request === 'vscode' ? STUB_ID : original.call(this, request, ...rest);
  };
  (resolve as { vscodeStub?: true }).vscodeStub = true;
  loader._resolveFilename = resolve;
  const m = new Module(STUB_ID);
  m.filename = STUB_ID;
  m.loaded = true;
  m.exports = vscodeApi;
  loader._cache[STUB_ID] = m;
}
