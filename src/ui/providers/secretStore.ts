// Secrets referenced by providers (`${secret:NAME}` in headers or addresses), kept in VS Code's
// SecretStorage, never in settings. A secret is set for one provider of the user's settings and
// substituted only into that provider's requests (core/config/secretScope.ts); a provider defined in
// workspace settings never receives one. Holds the values in memory for resolving requests, keeps
// the masker up to date, and binds secrets set before this rule to the user providers that
// referenced them (once, telling the user). The Set Secret and Delete Secret commands:
// secretPrompts.ts, loaded on first use.

import vscode = require('vscode');
import { Disposable } from '../base/lifecycle';
import { LocalizedError } from '../../core/base/errors';
import { masker } from '../../core/secrets/mask';
import { type Provider } from '../../core/config/providers';
import { bindingKey, migrationPlan, secretValueProblem, storedSecrets } from '../../core/config/secretScope';
import { type SecretSource, resolveWith, secretNames } from '../../core/config/secrets';
import { type Log } from '../base/log';
import { userProviders } from '../base/settings';

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

  /** Every secret set, as (provider, name). */
  bindings(): SecretBinding[] {
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

  /** True when `name` is set for `provider`. */
  has(provider: string, name: string): boolean {
    return this.values.has(bindingKey(provider, name));
  }
}
