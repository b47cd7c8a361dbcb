// The lazy boundary: everything activation does not load, reached only through loadOnDemand()
// (src/ui/loadOnDemand.ts). The release build keeps it in its own file, dist/onDemand.js, and fails
// when code of these kinds lands in what activation loads (scripts/build.mjs, ACTIVATION_FORBIDS).
// Code in this folder imports activation code only as types (src/ui/deps.ts) or leaf helpers
// (settings, prompts, treeNodes' kind guards), so no import runs back across the boundary.

// Commands: requests and their documents, copy as curl, the API's run().
export { copyAsCurl, curlLine, runForApi, runOperation, restQueryCommand } from '../requests/runOperation';
export { capabilitiesForApi } from '../health/capabilitiesApi';
// Views and flows no one needs at startup.
export { CompareView } from '../health/compareView';
export { addProvider } from '../providers/addProvider';
export { importChainRegistry } from '../providers/importChainRegistry';
export { watchEvents, watchForApi } from '../events/watchEvents';
// The explorer: Look Up… (command and API), and the links and hovers of result documents.
export { lookUpCommand, lookUpForApi } from '../explorer/lookUp';
export { addressHover } from './addressHover';
export { documentHover, documentLinks } from '../explorer/documentLinks';
// Contracts: Call Contract… (command and API), decode(), attaching an artifact to an address.
export { callContractCommand, callContractForApi, decodeForApi } from '../contracts/callContract';
export { attachArtifact } from '../contracts/attachArtifact';
// Simulate (what if)…, Simulate with Changes… (replay), the API's simulate(), Call Contract's overrides check.
export { callOverridesCheck, replayCommand, simulateCommand, simulateForApi } from '../contracts/simulate';
export { providerPrompts } from '../providers/providerPicks';
// Query files (.chainq): the language features and the editor's runner (src/ui/queryFiles.ts starts them).
export { QueryEditor } from '../queries/queryEditor';
export { runQueryDocument } from '../queries/queryRun';
// Core code that activation-time parts use once something has been asked: the health probes
// (first refresh), the status bar's polling fallback (when its WebSocket fails), and the catalogue
// (when the tree expands an interface, or History copies a request).
export { HealthMonitor } from '../../core/health/health';
export { HealthSession } from '../../core/health/session';
export { probeCapabilities } from '../../core/health/capabilities';
export { CapabilityBook } from '../../core/health/capabilityPolicy';
export { requestOptions } from '../../core/chain/requestOptions';
export { fetchCometStatus } from '../../core/chain/probes';
export { bestProvidersFor, canServe, looksUnserved } from '../../core/health/serves';
export { interpret, readCometStatus } from '../../core/documents/interpret';
export { findOperation, operationsFor, routeOperations } from '../../core/chain/operations';
export { restModuleOf } from '../../core/health/serves';
export { importOpenApiCommand, restoreImportedRoutes } from '../requests/importOpenApi';
