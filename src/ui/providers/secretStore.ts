// Secrets referenced by providers (`${secret:NAME}` in headers or addresses), kept in VS Code's
// SecretStorage, never in settings. A secret is set for one provider of the user's settings and
// substituted only into that provider's requests (core/config/secretScope.ts); a provider defined in
// workspace settings never receives one. Holds the values in memory for resolving requests, keeps
// the masker up to date, offers the Set Secret / Delete Secret commands, and binds secrets set
// before this rule to the user providers that referenced them (once, telling the user).

import vscode = require('vscode');
import { Disposable } from '../base/lifecycle';
import { LocalizedError, errorMessage } from '../../core/base/errors';
import * as l10n from '../../core/base/l10n';
import { masker } from '../../core/secrets/mask';
import { providerPickItems } from '../../core/config/networks';
import { type Provider, providerNamed } from '../../core/config/providers';
import { bindingKey, migrationPlan, secretValueProblem, storedSecrets } from '../../core/config/secretScope';
import { SECRET_NAME, type SecretSource, resolveWith, secretNames } from '../../core/config/secrets';
import { type Log } from '../base/log';
import { currentNetworks } from './networkDirectory';
import { type Prompts, windowPrompts } from '../base/prompts';
import { userProviderEntries, userProviders, writeUserProviderEntries } from '../base/settings';

/** Before secrets were bound to a provider: one key per name, and the list of names. */
const LEGACY_PREFIX = 'chainEndpoints.secret.';
const LEGACY_NAMES_KEY = 'chainEndpoints.secretNames';
/** Now: one key per provider and name (bindingKey), and the list of bindings. */
const KEY_PREFIX = 'chainEndpoints.providerSecret.';
const BINDINGS_KEY = 'chainEndpoints.secretBindings';

export interface SecretBinding {
  provider: string;
  name: string;
}

export class SecretStore extends Disposable {
  /** By bindingKey(provider, name). */
  private readonly values = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a secret is set or deleted (the status bar and health re-resolve). */
  readonly onDidChange = this.changed.event;
  readonly ready: Promise<void>;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: Log,
  ) {
    super();
    this._register(this.changed);
    this.ready = this.load();
    this._register(
      context.secrets.onDidChange(async (e) => {
        if (!e.key.startsWith(KEY_PREFIX)) return;
        await this.loadOne(e.key.slice(KEY_PREFIX.length));
        this.changed.fire();
      }),
    );
  }

  private bindings(): SecretBinding[] {
    return this.context.globalState.get<SecretBinding[]>(BINDINGS_KEY, []);
  }

  private async load(): Promise<void> {
    await this.migrate();
    await Promise.all(this.bindings().map((b) => this.loadOne(bindingKey(b.provider, b.name))));
  }

  /** Secrets set before they were bound to a provider: bound to the user providers that reference them. */
  private async migrate(): Promise<void> {
    const legacy = this.context.globalState.get<string[]>(LEGACY_NAMES_KEY, []);
    if (legacy.length === 0) return;
    const plan = migrationPlan(legacy, userProviders());
    for (const { provider, name } of plan.bind) {
      const value = await this.context.secrets.get(LEGACY_PREFIX + name);
      if (value !== undefined) await this.store(provider, name, value);
    }
    for (const name of legacy) await this.context.secrets.delete(LEGACY_PREFIX + name);
    await this.context.globalState.update(LEGACY_NAMES_KEY, undefined);
    const bound = plan.bind.map((b) => `"${b.name}" → ${b.provider}`).join(', ');
    this.log.info(
      `[secrets] bound to their providers: ${bound || 'none'}; removed (no user-settings provider references them): ${plan.unbound.join(', ') || 'none'}`,
    );
    const parts = [vscode.l10n.t('Secrets now belong to one provider of your user settings and are sent only to its addresses.')];
    if (bound) parts.push(vscode.l10n.t('Bound: {0}.', bound));
    if (plan.unbound.length)
      parts.push(
        vscode.l10n.t('Removed, as no provider of your user settings references them: {0} (set them again for a provider if needed).', plan.unbound.join(', ')),
      );
    void vscode.window.showInformationMessage(parts.join(' '));
  }

  private async loadOne(key: string): Promise<void> {
    const value = await this.context.secrets.get(KEY_PREFIX + key);
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
    masker.set(this.values.values());
  }

  /**
   * The provider with its own secrets substituted; throws a clear error naming a missing secret,
   * or refusing a workspace provider that references one (nothing is sent).
   */
  resolve(p: Provider): Provider {
    return secretNames(p).length === 0 ? p : resolveWith(this.source, p);
  }

  /**
   * The stored secrets as the one secret source (core/config/secrets.ts) the query pipeline and
   * resolve() read: each value bound to its user-settings provider, a workspace provider refused.
   */
  readonly source: SecretSource = storedSecrets(
    {
      get: (key) => this.values.get(key),
      all: () =>
        this.bindings().flatMap((b) => {
          const value = this.values.get(bindingKey(b.provider, b.name));
          return value === undefined ? [] : [{ provider: b.provider, name: b.name, value }];
        }),
    },
    () => vscode.l10n.t('run "Chain Endpoints: Set Secret"'),
  );

  /** resolve() once the stored secrets are loaded: what every request started by a person uses (ui/requests/run.ts). */
  async resolved(p: Provider): Promise<Provider> {
    await this.ready;
    return this.resolve(p);
  }

  private async store(provider: string, name: string, value: string): Promise<void> {
    const key = bindingKey(provider, name);
    await this.context.secrets.store(KEY_PREFIX + key, value);
    const others = this.bindings().filter((b) => bindingKey(b.provider, b.name) !== key);
    await this.context.globalState.update(BINDINGS_KEY, [...others, { provider, name }]);
    this.values.set(key, value);
    masker.set(this.values.values());
  }

  async set(provider: string, name: string, value: string): Promise<void> {
    const problem = secretValueProblem(value);
    if (problem) throw new LocalizedError(problem);
    await this.store(provider, name, value);
    this.log.info(`[secrets] secret "${name}" of ${provider} stored in SecretStorage`);
    this.changed.fire();
  }

  async delete(provider: string, name: string): Promise<void> {
    const key = bindingKey(provider, name);
    await this.context.secrets.delete(KEY_PREFIX + key);
    await this.context.globalState.update(
      BINDINGS_KEY,
      this.bindings().filter((b) => bindingKey(b.provider, b.name) !== key),
    );
    this.values.delete(key);
    masker.set(this.values.values());
    this.log.info(`[secrets] secret "${name}" of ${provider} deleted`);
    this.changed.fire();
  }

  /** The user provider named `name` (case-insensitive), or a clear error. */
  private userProvider(name: string): Provider {
    const p = providerNamed(userProviders(), name);
    if (!p) {
      throw new LocalizedError(
        l10n.both('No provider named "{0}" in your user settings: a secret can only be set for a provider of your user settings.', name),
      );
    }
    return p;
  }

  /**
   * "Set Secret": `{ provider, name, value }`, asking only for what is missing: the provider (of the
   * user's settings), the name (those it references), the value (hidden, at least 8 characters).
   */
  /**
   * `header`: also put `${secret:NAME}` into that header of the provider (user settings). `pickPrompts`:
   * the prompts for the provider pick (extension.ts gives the shared one, loaded on first use).
   */
  async promptSet(
    arg?: { provider?: string; name?: string; value?: string; header?: string },
    pickPrompts: () => Promise<Prompts> = () => Promise.resolve(windowPrompts),
  ): Promise<string | undefined> {
    await this.ready;
    const users = userProviders();
    let provider: Provider | undefined;
    if (arg?.provider) provider = this.userProvider(arg.provider);
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
      const picked = await (
        await pickPrompts()
      ).pick(
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
      const has = (n: string) => this.values.has(bindingKey(provider!.name, n));
      // Items are told apart by `other`, not by their (translated) label.
      const picked = await vscode.window.showQuickPick(
        [
          ...referenced
            .filter((n) => !has(n))
            .map((n) => ({ label: n, description: vscode.l10n.t('referenced by {0}, not set', provider!.name), other: false })),
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
    await this.set(provider.name, name, value);
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
          (err: unknown) => this.log.warn(`[secrets] adding the header: ${errorMessage(err)}`),
        );
    } else {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Secret "{0}" saved for {1}: it is sent only to {1}\'s own addresses, where referenced as {2}.', name, provider.name, reference),
      );
    }
    return name;
  }

  /** "Delete Secret": `{ provider, name }`; without a provider, every provider's secret of that name. */
  async promptDelete(arg?: { provider?: string; name?: string }): Promise<string | undefined> {
    await this.ready;
    let targets = this.bindings();
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
    for (const b of targets) await this.delete(b.provider, b.name);
    return arg?.name ?? targets[0]?.name;
  }
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
