// Attach an Artifact to an Address…: `{ address?, artifact?, name?, network? }`; asks for the address
// and picks one of the workspace's artifacts (or takes its path), then writes the entry into the
// user's `chainEndpoints.contracts` (replacing one for the same address and network), with the file's
// absolute path: a relative one in user settings would be read from whatever workspace is open.

import vscode = require('vscode');
import { LocalizedError } from '../../core/base/errors';
import * as l10n from '../../core/base/l10n';
import type { CommandDeps } from '../base/deps';
import { contractsSettingLevels, writeUserContracts } from '../base/settings';
import { absoluteArtifactPath, contractRegistry } from './contracts';
import { isEvmAddress } from '../../core/base/text';

export interface AttachArgument {
  readonly address?: string;
  /** An artifact or ABI file: absolute, or relative to the (first) workspace folder. */
  readonly artifact?: string;
  readonly name?: string;
  readonly network?: string;
}

export async function attachArtifact(deps: CommandDeps, arg?: unknown): Promise<boolean> {
  const a = (arg && typeof arg === 'object' ? arg : {}) as AttachArgument;
  const address = (
    a.address ??
    (await vscode.window.showInputBox({
      title: l10n.t('Attach an Artifact to an Address'),
      prompt: l10n.t('The contract address (0x…)'),
      validateInput: (t) => (isEvmAddress(t.trim()) ? undefined : l10n.t('0x and 40 hex digits.')),
    }))
  )?.trim();
  if (!address) return false;
  if (!isEvmAddress(address)) throw new LocalizedError(l10n.both('0x and 40 hex digits.'));
  let artifact = a.artifact;
  let name = a.name;
  if (!artifact) {
    const index = contractRegistry(deps).artifacts;
    const all = (await index?.artifacts()) ?? [];
    const picked = await vscode.window.showQuickPick(
      all.map((x) => ({ label: x.name, description: x.path, x })),
      {
        title: l10n.t('Attach an Artifact to {0}', address),
        placeHolder: all.length
          ? l10n.t('The artifact whose ABI the address has')
          : index?.withheld
            ? l10n.t('Workspace artifacts are not read: the workspace is not trusted')
            : l10n.t('No artifacts found (out/ or artifacts/contracts/)'),
      },
    );
    if (!picked) return false;
    artifact = picked.x.path;
    name ??= picked.x.name;
  }
  const file = absoluteArtifactPath(artifact);
  const entry = { address, abi: file, name: name ?? file.replace(/^.*[\\/]/, '').replace(/\.json$/, ''), ...(a.network ? { network: a.network } : {}) };
  const current = (contractsSettingLevels().user ?? []).filter(
    (e) =>
      !(
        e &&
        typeof e === 'object' &&
        String((e as { address?: unknown }).address).toLowerCase() === address.toLowerCase() &&
        (e as { network?: unknown }).network === a.network
      ),
  );
  await writeUserContracts([...current, entry]);
  contractRegistry(deps).invalidate();
  deps.log.info(`[contracts] ${address} attached to ${file}`);
  return true;
}
