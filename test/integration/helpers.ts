// Shared helpers for the integration suite (runs inside the extension host).

import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ActivatedApi as ChainEndpointsApi } from '../../src/extension';
import type { DevnetProviderUrls } from '../devnet/devnet';

export const EXTENSION_ID = 'chain-endpoints.chain-endpoints';

export async function activateExtension(): Promise<ChainEndpointsApi> {
  const ext = vscode.extensions.getExtension<ChainEndpointsApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not installed in this VS Code`);
  return ext.activate();
}

export async function setProviders(providers: unknown[]): Promise<void> {
  await vscode.workspace.getConfiguration('chainEndpoints').update('providers', providers, vscode.ConfigurationTarget.Global);
}

/** A devnet's providers as chainEndpoints.providers entries (name and the five addresses). */
export function providerSettings(providers: readonly DevnetProviderUrls[]): Array<Omit<DevnetProviderUrls, 'evmWs'>> {
  return providers.map(({ name, evmRpc, consensusHttp, consensusRpc, consensusWs, rest }) => ({
    name,
    evmRpc,
    consensusHttp,
    consensusRpc,
    consensusWs,
    rest,
  }));
}

export async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('chainEndpoints').update(key, value, vscode.ConfigurationTarget.Global);
}

/** Polls `probe` until it returns a truthy value; fails with `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => T | Promise<T>, timeoutMs = 15_000, everyMs = 100): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as NonNullable<T>;
      last = value;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what} (last: ${String(last)})`);
    await sleep(everyMs);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Runs a command that returns the Uri of the document it opened, and reads that document. */
export async function runForDocument(command: string, arg?: unknown): Promise<{ uri: vscode.Uri; doc: vscode.TextDocument; text: string }> {
  const uri = await vscode.commands.executeCommand<vscode.Uri | undefined>(command, arg);
  assert.ok(uri instanceof vscode.Uri, `${command} returned ${String(uri)} instead of a Uri`);
  const doc = await vscode.workspace.openTextDocument(uri);
  return { uri, doc, text: doc.getText() };
}

/** The document without its `//` header, parsed. */
export function bodyOf(text: string): unknown {
  return JSON.parse(text.replace(/^(\/\/[^\n]*\n)+/, ''));
}

export function headerOf(text: string): string[] {
  return text.split('\n').filter((l) => l.startsWith('//'));
}

export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

export async function getJson(url: string, init?: RequestInit): Promise<unknown> {
  const res = await fetch(url, init);
  return res.json();
}

/** A suite's scratch folder (mkdtemp under the OS temp dir): files written there and opened in an editor. */
export interface ScratchFiles {
  readonly dir: string;
  /** Writes `name` with `text` and shows it in an editor. */
  open(name: string, text: string): Promise<vscode.TextDocument>;
  /** Removes the folder and everything in it. */
  dispose(): void;
}

export function scratchFiles(prefix: string): ScratchFiles {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return {
    dir,
    async open(name, text) {
      const file = path.join(dir, name);
      writeFileSync(file, text);
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
      await vscode.window.showTextDocument(doc);
      return doc;
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
