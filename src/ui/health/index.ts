// Health, loaded on the first refresh (src/ui/base/load.ts): the probes, the capability probes and
// their policy, the session's history, the Compare view and the API's capabilities().
export { HealthMonitor } from '../../core/health/health';
export { HealthSession } from '../../core/health/session';
export { probeCapabilities } from '../../core/health/capabilities';
export { CapabilityBook } from '../../core/health/capabilityPolicy';
export { requestOptions } from '../../core/chain/requestOptions';
export { CompareView } from './compareView';
export { capabilitiesForApi } from './capabilitiesApi';
