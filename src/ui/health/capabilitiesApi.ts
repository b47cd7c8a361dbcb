// The API's capabilities(provider): what the provider can serve, probed on the first call, as
// plain data (src/api.ts `ApiCapabilities`).

import type { ApiCapabilities } from '../../api';
import { LocalizedError } from '../../core/base/errors';
import type { Capabilities } from '../../core/health/capabilities';
import { readSettings } from '../base/settings';
import { providerNamed, unknownProvider } from '../../core/config/providers';

export interface CapabilityHolder {
  capabilities(provider: string): Capabilities | undefined;
  refresh(names?: readonly string[], opts?: { capabilities?: boolean }): Promise<unknown>;
}

export async function capabilitiesForApi(health: CapabilityHolder, provider: string): Promise<ApiCapabilities> {
  const providers = readSettings().providers.providers;
  const p = providerNamed(providers, provider);
  if (!p) throw new LocalizedError(unknownProvider(provider, providers));
  // The API asking is someone asking what the provider serves (docs/capabilities.md): not probed
  // yet, or not with the costly probes (archive state, debug, txpool): probe now, costly ones included.
  if (!health.capabilities(p.name)?.costly) await health.refresh([p.name], { capabilities: true });
  const c = health.capabilities(p.name);
  if (!c) throw new LocalizedError(`The capabilities of "${p.name}" could not be probed: see the log.`);
  const copy = JSON.parse(JSON.stringify(c)) as Capabilities;
  return { ...copy, probedAt: new Date(c.probedAt).toISOString() };
}
