// Read-only result documents through the `chain-endpoints` scheme, served by a read-only file
// system provider (the editor refuses edits and never asks to save). One URI per request
// (provider, operation, arguments): running it again replaces the text and the open editor
// follows. Texts live here while their documents are open.

import vscode = require('vscode');
import { promises as fs } from 'node:fs';
import path = require('node:path');
import { sweepSpillDir } from '../../core/transport/spillFiles';
import { Disposable } from './lifecycle';

export const RESULT_SCHEME = 'chain-endpoints';

/**
 * The editor gives extensions no text of a document above 50 MB (it is not synchronised to the
 * extension host), so openTextDocument refuses it: such a result is opened as an editor only.
 */
const EXTENSION_HOST_SYNC_LIMIT = 50 * 1024 * 1024;

/** What a result URI shows once its text is gone (computed on use: the l10n bundle may load after this module). */
function gone(): Uint8Array {
  return Buffer.from(`// ${vscode.l10n.t('This result is no longer in memory (the window was reloaded): run the request again.')}\n{}\n`, 'utf8');
}

export class ResultDocuments extends Disposable implements vscode.FileSystemProvider {
  private readonly texts = new Map<string, { data: Uint8Array; mtime: number }>();
  /** Answers in the extension's storage shown as their own file: deleted when the document closes. */
  readonly spilled = new Set<string>();
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;

  constructor() {
    super();
    this._register(this.changed);
    this._register(
      vscode.workspace.registerFileSystemProvider(RESULT_SCHEME, this, { isReadonly: true, isCaseSensitive: true }),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        if (doc.uri.scheme === RESULT_SCHEME) this.texts.delete(keyOf(doc.uri));
        // An answer written to the extension's storage is deleted with its document (core/transport/spillFiles.ts).
        if (doc.uri.scheme === 'file' && this.spilled.delete(doc.uri.fsPath)) void fs.rm(doc.uri.fsPath, { force: true }).catch(() => undefined);
      }),
    );
  }

  /** Keeps a body written to disk until its document closes (then deletes it), and sweeps its folder. */
  trackSpilled(file: string): void {
    this.spilled.add(file);
    void sweepSpillDir(path.dirname(file), { keep: this.spilled });
  }

  /** Shows `text` read-only at `uri` (a chain-endpoints: URI), replacing what it showed before. */
  showText(uri: vscode.Uri, text: string, options: { preview?: boolean; open?: boolean } = {}): Promise<vscode.Uri> {
    return this.showData(uri, Buffer.from(text, 'utf8'), options);
  }

  /** showText for UTF-8 bytes (a result document as rendered: never decoded here when large). */
  async showData(uri: vscode.Uri, data: Buffer, options: { preview?: boolean; open?: boolean; language?: string } = {}): Promise<vscode.Uri> {
    // Only documents the extension host holds are listed, so the decoded text here is bounded.
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    // An open document reloads asynchronously after the change event: wait for the new text, so
    // whoever reads the returned Uri sees this result, not the previous one.
    const updated = open && data.length <= EXTENSION_HOST_SYNC_LIMIT ? waitForText(open, data.toString('utf8'), 5000) : Promise.resolve();
    this.putData(uri, data);
    await updated;
    if (options.open === false) return uri;
    if (data.length > EXTENSION_HOST_SYNC_LIMIT) {
      // The .json path gives the editor its language.
      await vscode.commands.executeCommand('vscode.open', uri, { preview: options.preview ?? false });
      return uri;
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    const language = options.language ?? 'json';
    if (doc.languageId !== language) await vscode.languages.setTextDocumentLanguage(doc, language);
    await vscode.window.showTextDocument(doc, { preview: options.preview ?? false });
    return uri;
  }

  /** Registers text for a URI without opening it (e.g. the two sides of a diff). */
  put(uri: vscode.Uri, text: string): void {
    this.putData(uri, Buffer.from(text, 'utf8'));
  }

  private putData(uri: vscode.Uri, data: Uint8Array): void {
    const key = keyOf(uri);
    const existed = this.texts.has(key);
    this.texts.set(key, { data, mtime: Date.now() });
    if (existed) this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  /** The text shown at `uri`, if it is still held. */
  textOf(uri: vscode.Uri): string | undefined {
    const data = this.dataOf(uri);
    return data ? Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8') : undefined;
  }

  /** The bytes shown at `uri` (UTF-8), if they are still held. */
  dataOf(uri: vscode.Uri): Uint8Array | undefined {
    return this.texts.get(keyOf(uri))?.data;
  }

  // --- FileSystemProvider: read-only, flat ---------------------------------------------------

  stat(uri: vscode.Uri): vscode.FileStat {
    const entry = this.texts.get(keyOf(uri));
    return {
      type: vscode.FileType.File,
      ctime: entry?.mtime ?? 0,
      mtime: entry?.mtime ?? 0,
      size: entry?.data.byteLength ?? gone().byteLength,
      permissions: vscode.FilePermission.Readonly,
    };
  }

  readFile(uri: vscode.Uri): Uint8Array {
    return this.texts.get(keyOf(uri))?.data ?? gone();
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  writeFile(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  override dispose(): void {
    super.dispose();
    this.texts.clear();
  }
}

/** Resolves when `doc` holds `text` (or after `timeoutMs`: the editor may be slow, never stuck). */
function waitForText(doc: vscode.TextDocument, text: string, timeoutMs: number): Promise<void> {
  if (doc.getText() === text) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      sub.dispose();
      resolve();
    };
    const sub = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === doc && doc.getText() === text) done();
    });
    const timer = setTimeout(done, timeoutMs);
  });
}

function keyOf(uri: vscode.Uri): string {
  return `${uri.path}?${uri.query}`;
}
