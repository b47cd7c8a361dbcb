// The status bar's polling fallback (a provider's /status through execute()), loaded only when an
// item's WebSocket is unusable: heightStatusBar.ts imports it on its first poll.
export { fetchCometStatus } from '../../core/chain/probes';
export { requestOptions } from '../../core/chain/requestOptions';
