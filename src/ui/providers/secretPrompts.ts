// The Set Secret and Delete Secret commands (register.ts), loaded on first use: what they ask,
// check and say. The store they write (values, bindings, the masker): secretStore.ts.

import vscode = require('vscode');
import { LocalizedError, errorMessage } from '../../core/base/errors';
import * as l10n from '../../core/base/l10n';
import { providerPickItems } from '../../core/config/networks';
import { type Provider, providerNamed } from '../../core/config/providers';
import { secretValueProblem } from '../../core/config/secretScope';
import { SECRET_NAME, secretNames } from '../../core/config/secrets';
import { type Log } from '../base/log';
import { type Prompts, windowPrompts } from '../base/prompts';
import { userProviderEntries, userProviders, writeUserProviderEntries } from '../base/settings';
import { currentNetworks } from './networkDirectory';
import type { SecretStore } from './secretStore';

/** The user provider named `name` (case-insensitive), or a clear error. */
function userProvider(name: string): Provider {
  const p = providerNamed(userProviders(), name);
  if (!p) {
    throw new LocalizedError(l10n.both('No provider named "{0}" in your user settings: a secret can only be set for a provider of your user settings.', name));
  }
  return p;
}

/**
 * "Set Secret": `{ provider, name, value }`, asking only for what is missing: the provider (of the
 * user's settings), the name (those it references), the value (hidden, at least 8 characters).
 * `header`: also put `${secret:NAME}` into that header of the provider (user settings). `prompts`:
 * the prompts for the provider pick (register.ts gives the shared one).
 */
export async function setSecret(
  store: SecretStore,
  log: Log,
  arg?: { provider?: string; name?: string; value?: string; header?: string },
  prompts: Prompts = windowPrompts,
): Promise<string | undefined> {
  await store.ready;
  const users = userProviders();
  let provider: Provider | undefined;
  if (arg?.provider) provider = userProvider(arg.provider);
  else if (arg?.name) {
    const referencing = users.filter((p) => secretNames(p).includes(arg.name!.trim()));
    if (referencing.length === 1) provider = referencing[0];
  }
  if (!provider && users.length === 0) {
    throw new LocalizedError(
      l10n.both(
        'No provider in your user settings: a secret is set for a provider of your user settings (providers from workspace settings never receive one).',
      ),
    );
  }
  if (!provider) {
    const candidates = [...users].sort((a, b) => secretNames(b).length - secretNames(a).length);
    // The shared provider pick (as the operation commands show it): `pickPrompts` adds each
    // provider's state and height and puts the last used first (ui/providers/providerPicks.ts).
    const picked = await prompts.pick(
      providerPickItems(candidates, currentNetworks(users), (p) =>
        secretNames(p)
          .map((n) => `\${secret:${n}}`)
          .join(' '),
      ),
      { title: vscode.l10n.t('Set Secret: for which provider of your user settings?') },
    );
    if (!picked) return undefined;
    provider = picked.provider;
  }
  let name = arg?.name;
  if (!name) {
    const referenced = secretNames(provider);
    const has = (n: string) => store.has(provider!.name, n);
    // Items are told apart by `other`, not by their (translated) label.
    const picked = await vscode.window.showQuickPick(
      [
        ...referenced.filter((n) => !has(n)).map((n) => ({ label: n, description: vscode.l10n.t('referenced by {0}, not set', provider!.name), other: false })),
        ...referenced.filter(has).map((n) => ({ label: n, description: vscode.l10n.t('set: replace its value'), other: false })),
        { label: `$(add) ${vscode.l10n.t('Another name…')}`, description: '', other: true },
      ],
      {
        title: vscode.l10n.t('Set Secret for {0}', provider.name),
        placeHolder: vscode.l10n.t('The secret to set (referenced as {0} in a provider)', '${secret:NAME}'),
      },
    );
    if (!picked) return undefined;
    name = picked.other
      ? await vscode.window.showInputBox({
          title: vscode.l10n.t('Set Secret: name'),
          prompt: vscode.l10n.t('Letters, digits, "-", "_" and "."; reference it as {0} in a provider\'s headers or address', '${secret:NAME}'),
          validateInput: (v) => (SECRET_NAME.test(v.trim()) ? undefined : vscode.l10n.t('Use 1 to 64 letters, digits, "-", "_" or ".".')),
        })
      : picked.label;
    if (!name) return undefined;
  }
  name = name.trim();
  if (!SECRET_NAME.test(name)) {
    throw new LocalizedError(l10n.both('"{0}" is not a valid secret name: use 1 to 64 letters, digits, "-", "_" or ".".', name));
  }
  const value =
    arg?.value ??
    (await vscode.window.showInputBox({
      title: vscode.l10n.t('Set Secret: {0} for {1}', name, provider.name),
      prompt: vscode.l10n.t("The value (stored in VS Code's secret storage, never in settings)"),
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => secretValueProblem(v),
    }));
  if (value === undefined) return undefined;
  const problem = secretValueProblem(value);
  if (problem) throw new LocalizedError(problem);
  await store.set(provider.name, name, value);
  const reference = `\${secret:${name}}`;
  if (arg?.header) {
    await putInHeader(provider.name, arg.header, reference);
    void vscode.window.showInformationMessage(vscode.l10n.t('Secret "{0}" saved for {1} and sent as its "{2}" header.', name, provider.name, arg.header));
  } else if (!secretNames(provider).includes(name)) {
    // Set but not used yet: offer to put the reference where it is sent.
    const add = vscode.l10n.t('Add to a header…');
    void vscode.window
      .showInformationMessage(
        vscode.l10n.t('Secret "{0}" saved for {1}, which does not use it yet: put {2} into one of its headers?', name, provider.name, reference),
        add,
      )
      .then(
        async (choice) => {
          if (choice !== add) return;
          const line = await vscode.window.showInputBox({
            title: vscode.l10n.t('Header of {0}', provider!.name),
            prompt: vscode.l10n.t('"Name: value"; the value keeps {0}, replaced by the secret only when sending to {1}', reference, provider!.name),
            value: `Authorization: Bearer ${reference}`,
            validateInput: (v) =>
              /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\s*:\s*\S/.test(v.trim()) ? undefined : vscode.l10n.t('Type "Name: value", such as "x-api-key: {0}".', reference),
          });
          if (!line) return;
          const at = line.indexOf(':');
          await putInHeader(provider!.name, line.slice(0, at).trim(), line.slice(at + 1).trim());
          void vscode.window.showInformationMessage(vscode.l10n.t('{0} now sends the "{1}" header.', provider!.name, line.slice(0, at).trim()));
        },
        (err: unknown) => log.warn(`[secrets] adding the header: ${errorMessage(err)}`),
      );
  } else {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Secret "{0}" saved for {1}: it is sent only to {1}\'s own addresses, where referenced as {2}.', name, provider.name, reference),
    );
  }
  return name;
}

/** "Delete Secret": `{ provider, name }`; without a provider, every provider's secret of that name. */
export async function deleteSecret(store: SecretStore, arg?: { provider?: string; name?: string }): Promise<string | undefined> {
  await store.ready;
  let targets = store.bindings();
  if (arg?.provider) targets = targets.filter((b) => b.provider.toLowerCase() === arg.provider!.trim().toLowerCase());
  if (arg?.name) targets = targets.filter((b) => b.name === arg.name);
  else {
    const picked = await vscode.window.showQuickPick(
      targets.map((b) => ({ label: b.name, description: b.provider, b })),
      { title: vscode.l10n.t('Delete Secret') },
    );
    if (!picked) return undefined;
    targets = [picked.b];
  }
  for (const b of targets) await store.delete(b.provider, b.name);
  return arg?.name ?? targets[0]?.name;
}

/** Sets one header of a provider of the user settings (its entry as written, other fields kept). */
async function putInHeader(provider: string, header: string, value: string): Promise<void> {
  const entries = userProviderEntries();
  const i = entries.findIndex(
    (e) => typeof (e as { name?: unknown })?.name === 'string' && (e as { name: string }).name.trim().toLowerCase() === provider.toLowerCase(),
  );
  if (i < 0) throw new LocalizedError(l10n.both('Provider "{0}" is no longer configured.', provider));
  const entry = entries[i] as { headers?: Record<string, string> };
  entries[i] = { ...entry, headers: { ...(entry.headers ?? {}), [header]: value } };
  await writeUserProviderEntries(entries);
}
