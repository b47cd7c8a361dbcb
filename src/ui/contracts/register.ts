// Contracts at activation: Attach Artifact…, Simulate with Changes… (replay), and the API's
// callContract(), decode() and simulate(). (Call Contract… and Simulate… are catalogue operations:
// requests/register.ts registers their commands and hands them to this feature.) What runs them is
// loaded on first use (./index.ts through src/ui/base/load.ts).

import { Commands } from '../base/commandIds';
import { registerCommand } from '../base/commands';
import type { Activation } from '../base/activation';
import { onDemand } from '../base/load';
import type { ChainEndpointsApi } from '../../api';

export function registerContracts(a: Activation): Pick<ChainEndpointsApi, 'callContract' | 'decode' | 'simulate'> {
  a.keep(registerCommand(a.log, Commands.contractsAttach, async (arg?: unknown) => (await onDemand.contracts()).attachArtifact(a, arg)));
  a.keep(registerCommand(a.log, Commands.simulateWithChanges, async (arg?: unknown) => (await onDemand.contracts()).replayCommand(a, arg)));
  return {
    callContract: async (spec) => (await onDemand.contracts()).callContractForApi(a, spec),
    decode: async (input) => (await onDemand.contracts()).decodeForApi(a, input),
    simulate: async (spec) => (await onDemand.contracts()).simulateForApi(a, spec),
  };
}
