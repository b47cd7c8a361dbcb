// What activation does not load: the code behind what no one uses at startup (requests, copy as
// curl, the health probes and the comparison view, adding and importing providers), loaded together
// on the first use (src/ui/loadOnDemand.ts). The release build keeps it in its own file
// (scripts/build.mjs).

export { copyAsCurl, curlLine, runForApi, runOperation } from './runOperation';
export { CompareView } from './compareView';
export { HealthMonitor, ranked } from '../core/health';
export { addProvider } from './addProvider';
export { importChainRegistry } from './importChainRegistry';
