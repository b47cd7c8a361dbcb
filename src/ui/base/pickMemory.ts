// The provider picked last, kept in the workspace's state so the provider picks
// (src/ui/providers/providerPicks.ts) offer it first again after a restart. Only a provider's name is
// stored (never an address or a secret); a name no longer configured is simply not found.

/** The part of a vscode.Memento this needs (unit tests pass a Map-backed one). */
export interface NameMemory {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

const KEY = 'chainEndpoints.lastUsedProvider';
/** A provider name longer than this is not remembered (names are short; state stays bounded). */
const MAX_NAME = 200;

let memory: NameMemory | undefined;
let session: string | undefined;

/** Called once at activation with context.workspaceState. */
export function rememberPicksIn(m: NameMemory): void {
  memory = m;
}

export function lastUsedProvider(): string | undefined {
  if (session !== undefined) return session;
  const stored = memory?.get<unknown>(KEY);
  return typeof stored === 'string' && stored.length <= MAX_NAME ? stored : undefined;
}

export function setLastUsedProvider(name: string): void {
  if (name.length > MAX_NAME) return;
  session = name;
  void memory?.update(KEY, name);
}
