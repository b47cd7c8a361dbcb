// The session's ABIs: one ContractRegistry over the workspace's artifacts (listed with findFiles,
// read with workspace.fs, refreshed by a FileSystemWatcher; in an untrusted workspace none is listed
// or read, and the decoding says so) and `chainEndpoints.contracts` (an ABI file's size checked before
// it is read; a relative path resolved only in a trusted workspace). Created on the first decode,
// never at activation. What a lookup needs to explain EVM transactions for a
// provider: the registry, the provider's network, and whether it (or another of its network) serves
// `debug` (its probed capabilities).

import path from 'node:path';
import vscode = require('vscode');
import { LocalizedError } from '../../core/base/errors';
import * as l10n from '../../core/base/l10n';
import type { Abi } from 'viem';
import { ArtifactIndex, type ArtifactFile, type ArtifactFiles } from '../../core/contracts/artifacts';
import { ContractRegistry, type ContractSetting } from '../../core/contracts/registry';
import type { ContractsOption } from '../../core/explorer/source';
import type { Provider } from '../../core/config/providers';
import { currentNetworks, networkPeers } from '../providers/networkDirectory';
import type { CommandDeps } from '../base/deps';
import { type ContractsLevels, SECTION, contractsSettingLevels, readSettings } from '../base/settings';
import { isEvmAddress } from '../../core/base/text';

const ARTIFACT_GLOB = '{**/out/*.sol/*.json,**/artifacts/contracts/**/*.json}';
const EXCLUDE = '{**/node_modules/**,**/build-info/**,**/*.dbg.json}';

let registry: ContractRegistry | undefined;

/** The files the last listing found, by the path it gave them (Attach Artifact stores their absolute path). */
const uris = new Map<string, vscode.Uri>();

/** The workspace's artifact files through the editor (workspace-relative paths). */
function workspaceFiles(): ArtifactFiles {
  return {
    async list(limit) {
      const found = await vscode.workspace.findFiles(ARTIFACT_GLOB, EXCLUDE, limit);
      uris.clear();
      const out: ArtifactFile[] = [];
      for (const uri of found) {
        try {
          const st = await vscode.workspace.fs.stat(uri);
          const rel = vscode.workspace.asRelativePath(uri, vscode.workspace.workspaceFolders !== undefined && vscode.workspace.workspaceFolders.length > 1);
          uris.set(rel, uri);
          out.push({ path: rel, size: st.size, mtime: st.mtime });
        } catch {
          // gone since listed
        }
      }
      return out;
    },
    read: async (p) => vscode.workspace.fs.readFile(uris.get(p) ?? workspaceUri(p)),
  };
}

function workspaceUri(p: string): vscode.Uri {
  if (path.isAbsolute(p)) return vscode.Uri.file(p);
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new LocalizedError(l10n.both('No workspace folder to find {0} in.', p));
  return vscode.Uri.joinPath(folder.uri, p);
}

/** An artifact or ABI file's absolute path: as listed, else relative to the first workspace folder. */
export function absoluteArtifactPath(p: string): string {
  return (uris.get(p) ?? workspaceUri(p)).fsPath;
}

/**
 * A setting's ABI file: an absolute path anywhere; a relative one only in a trusted workspace (a
 * user setting's relative path would otherwise be read from whatever folder is open).
 */
function settingUri(p: string): vscode.Uri {
  if (!path.isAbsolute(p) && !vscode.workspace.isTrusted)
    throw new LocalizedError(l10n.both('{0} is relative and the workspace is not trusted: not read (Attach Artifact stores absolute paths).', p));
  return workspaceUri(p);
}

/**
 * `chainEndpoints.contracts`: user settings always; a workspace's entries only when it is trusted.
 * A workspace entry changes only how data is labelled and decoded (no request, no secret), but a
 * label is still a claim ("this address is USDC"): an untrusted folder does not get to make it, and
 * every decoding names its ABI's source.
 */
export function contractSettings(): readonly ContractSetting[] {
  const levels = contractsSettingLevels();
  const trusted = vscode.workspace.isTrusted;
  // The same list while the settings and the trust stay (the registry indexes it once).
  if (levels === lastLevels && trusted === lastTrusted && lastSettings) return lastSettings;
  lastLevels = levels;
  lastTrusted = trusted;
  return (lastSettings = Object.freeze(readContractSettings(levels, trusted)));
}
let lastLevels: ContractsLevels | undefined;
let lastTrusted: boolean | undefined;
let lastSettings: readonly ContractSetting[] | undefined;

function readContractSettings(levels: ContractsLevels, trusted: boolean): ContractSetting[] {
  const values = [levels.user, ...(trusted ? [levels.workspace, levels.folder] : [])];
  const out: ContractSetting[] = [];
  for (const v of values) {
    if (!Array.isArray(v)) continue;
    for (const e of v.slice(0, 1000) as Array<Record<string, unknown>>) {
      if (!e || typeof e !== 'object' || typeof e.address !== 'string' || !isEvmAddress(e.address)) continue;
      if (typeof e.abi !== 'string' && !Array.isArray(e.abi)) continue;
      out.push({
        address: e.address,
        abi: e.abi as string | Abi,
        name: typeof e.name === 'string' && e.name.trim() ? e.name.trim() : e.address,
        network: typeof e.network === 'string' && e.network.trim() ? e.network.trim() : undefined,
      });
    }
  }
  return out;
}

/** The session's registry (created on first use, with its watcher kept until deactivation). */
export function contractRegistry(deps: Pick<CommandDeps, 'keep'>): ContractRegistry {
  if (registry) return registry;
  const index = new ArtifactIndex(workspaceFiles(), undefined, { trusted: () => vscode.workspace.isTrusted, parseOffThread: true });
  const r = new ContractRegistry({
    artifacts: index,
    settings: contractSettings,
    fileSize: async (p) => (await vscode.workspace.fs.stat(settingUri(p))).size,
    readFile: async (p) => vscode.workspace.fs.readFile(settingUri(p)),
  });
  const watcher = vscode.workspace.createFileSystemWatcher('**/{out,artifacts}/**/*.json');
  const changed = () => r.invalidate();
  deps.keep?.(
    vscode.Disposable.from(
      watcher,
      watcher.onDidChange(changed),
      watcher.onDidCreate(changed),
      watcher.onDidDelete(changed),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(`${SECTION}.contracts`) && r.invalidate()),
      vscode.workspace.onDidGrantWorkspaceTrust(changed),
      { dispose: () => (registry = undefined) },
    ),
  );
  registry = r;
  return r;
}

let hoversOnly: ContractRegistry | undefined;

/** For hovers (no request, nothing read): the session's registry once a decode made it, else the built-in ABIs and settings. */
export function registryForHovers(): ContractRegistry {
  return registry ?? (hoversOnly ??= new ContractRegistry({ settings: contractSettings }));
}

/** The network a provider belongs to (the tree's label), else its chain id. */
export function networkOf(provider: Provider): string | undefined {
  const all = readSettings().providers.providers;
  return currentNetworks(all).find((n) => !n.unidentified && n.providers.some((p) => p.name === provider.name))?.label ?? provider.chainId;
}

/** What a lookup on `provider` needs to explain EVM transactions. */
export function contractsOption(deps: CommandDeps, provider: Provider): ContractsOption {
  const caps = (name: string) => deps.health?.capabilities(name)?.evm?.namespaces;
  const evm = deps.health?.capabilities(provider.name)?.evm;
  // Known not to serve debug only when its probe was sent (a costly probe not sent is unknown: try it).
  const debug = evm?.namespaces && !evm.unprobedNamespaces?.includes('debug') ? evm.namespaces.includes('debug') : undefined;
  let debugElsewhere: string | undefined;
  if (debug === false) {
    debugElsewhere = networkPeers(readSettings().providers.providers, provider).find((p) => p.endpoints.evmRpc && caps(p.name)?.includes('debug'))?.name;
  }
  // A provider of the same network that keeps old states, for a receipt whose N−1 is pruned here (#35).
  const archive = deps.health?.capabilities(provider.name)?.evm?.archive;
  let archiveElsewhere: string | undefined;
  if (archive !== true) {
    archiveElsewhere = networkPeers(readSettings().providers.providers, provider).find((p) => deps.health?.capabilities(p.name)?.evm?.archive === true)?.name;
  }
  return { registry: contractRegistry(deps), network: networkOf(provider), debug, debugElsewhere, ...(archiveElsewhere ? { archiveElsewhere } : {}) };
}
