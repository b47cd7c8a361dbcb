// chainEndpoints.capabilities.probe, read from its inspected values (a leaf: the settings read it
// at activation; the policy that applies it is core/health/capabilityPolicy.ts, loaded on demand).

/** auto: cheap probes on a timer, costly ones when asked; onDemand: nothing until asked; off: never. */
export type ProbeMode = 'auto' | 'onDemand' | 'off';

/** From least to most probing. */
const PROBE_ORDER: readonly ProbeMode[] = ['off', 'onDemand', 'auto'];

export interface InspectedSetting {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/**
 * The user's (or the remote machine's) value; a workspace or folder value is honoured only when it
 * probes less, so a repository can turn probes down for its providers but never force costly ones on.
 */
export function probeModeOf(inspected: InspectedSetting | undefined): ProbeMode {
  const valid = (v: unknown): ProbeMode | undefined => (PROBE_ORDER.includes(v as ProbeMode) ? (v as ProbeMode) : undefined);
  let mode = valid(inspected?.globalValue) ?? valid(inspected?.defaultValue) ?? 'auto';
  for (const v of [inspected?.workspaceValue, inspected?.workspaceFolderValue]) {
    const w = valid(v);
    if (w && PROBE_ORDER.indexOf(w) < PROBE_ORDER.indexOf(mode)) mode = w;
  }
  return mode;
}
