// Secrets referenced by providers (`${secret:NAME}` in headers or addresses), kept in VS Code's
// SecretStorage, never in settings. Holds the values in memory for resolving requests, keeps
// the masker up to date, and offers the Set Secret / Delete Secret commands.

import vscode = require('vscode');
import { Disposable } from './lifecycle';
import { LocalizedError } from '../core/base/errors';
import * as l10n from '../core/base/l10n';
import { masker } from '../core/secrets/mask';
import { Provider } from '../core/config/providers';
import { SECRET_NAME, resolveProvider, secretNames } from '../core/config/secrets';
import { Log } from './log';
import { readSettings } from './settings';

const KEY_PREFIX = 'chainEndpoints.secret.';
const NAMES_KEY = 'chainEndpoints.secretNames';

export class SecretStore extends Disposable {
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

  private names(): string[] {
    return this.context.globalState.get<string[]>(NAMES_KEY, []);
  }

  private async load(): Promise<void> {
    await Promise.all(this.names().map((n) => this.loadOne(n)));
  }

  private async loadOne(name: string): Promise<void> {
    const value = await this.context.secrets.get(KEY_PREFIX + name);
    if (value === undefined) this.values.delete(name);
    else this.values.set(name, value);
    masker.set(this.values.values());
  }

  /** The provider with its secrets substituted; throws a clear error naming a missing secret. */
  resolve(p: Provider): Provider {
    return secretNames(p).length === 0 ? p : resolveProvider(p, this.values);
  }

  async set(name: string, value: string): Promise<void> {
    await this.context.secrets.store(KEY_PREFIX + name, value);
    const names = new Set(this.names());
    names.add(name);
    await this.context.globalState.update(NAMES_KEY, [...names].sort());
    this.values.set(name, value);
    masker.set(this.values.values());
    this.log.info(`[secrets] secret "${name}" stored in SecretStorage`);
    this.changed.fire();
  }

  async delete(name: string): Promise<void> {
    await this.context.secrets.delete(KEY_PREFIX + name);
    await this.context.globalState.update(NAMES_KEY, this.names().filter((n) => n !== name));
    this.values.delete(name);
    masker.set(this.values.values());
    this.log.info(`[secrets] secret "${name}" deleted`);
    this.changed.fire();
  }

  /** "Set Secret": asks for the name (suggesting referenced, unset ones) and the value (hidden). */
  async promptSet(arg?: { name?: string; value?: string }): Promise<string | undefined> {
    await this.ready;
    const referenced = [...new Set(readSettings().providers.providers.flatMap(secretNames))];
    let name = arg?.name;
    if (!name) {
      const unset = referenced.filter((n) => !this.values.has(n));
      // Items are told apart by `other`, not by their (translated) label.
      const picked = await vscode.window.showQuickPick(
        [
          ...unset.map((n) => ({ label: n, description: vscode.l10n.t('referenced by a provider, not set'), other: false })),
          ...referenced.filter((n) => this.values.has(n)).map((n) => ({ label: n, description: vscode.l10n.t('set: replace its value'), other: false })),
          { label: `$(add) ${vscode.l10n.t('Another name…')}`, description: '', other: true },
        ],
        { title: vscode.l10n.t('Set Secret'), placeHolder: vscode.l10n.t('The secret to set (referenced as {0} in a provider)', '${secret:NAME}') },
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
      throw new LocalizedError(l10n.both('"{0}" is not a valid secret name: use 1 to 64 letters, digits, "-", "_" or ".".', name),
      );
    }
    const value =
      arg?.value ??
      (await vscode.window.showInputBox({
        title: vscode.l10n.t('Set Secret: {0}', name),
        prompt: vscode.l10n.t("The value (stored in VS Code's secret storage, never in settings)"),
        password: true,
        ignoreFocusOut: true,
        validateInput: (v) => (v === '' ? vscode.l10n.t('Type the value.') : undefined),
      }));
    if (value === undefined) return undefined;
    await this.set(name, value);
    void vscode.window.showInformationMessage(
      vscode.l10n.t("Secret \"{0}\" saved. Reference it as {1} in a provider's headers or address.", name, `\${secret:${name}}`),
    );
    return name;
  }

  async promptDelete(arg?: { name?: string }): Promise<string | undefined> {
    await this.ready;
    const name = arg?.name ?? (await vscode.window.showQuickPick(this.names(), { title: vscode.l10n.t('Delete Secret') }));
    if (!name) return undefined;
    await this.delete(name);
    return name;
  }
}
