// The status bar's polling fallback (when its WebSocket fails) and its provider picker, loaded on
// first use (src/ui/base/load.ts).
export { fetchCometStatus } from '../../core/chain/probes';
export { requestOptions } from '../../core/chain/requestOptions';
export { providerPrompts } from '../providers/providerPicks';
