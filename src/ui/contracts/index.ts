// Contracts, loaded on first use (src/ui/base/load.ts): Call Contract… (command and API), decode(),
// attaching an artifact to an address, Simulate (what if)…, Simulate with Changes… (replay) and the
// API's simulate().
export { callContractCommand, callContractForApi, decodeForApi } from './callContract';
export { attachArtifact } from './attachArtifact';
export { replayCommand, simulateCommand, simulateForApi } from './simulate';
