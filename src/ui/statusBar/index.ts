// The status bar's items and everything behind them: the trackers that follow a provider's height
// (WebSocket, the polling fallback), failover, the tooltip, the click menu and its provider picker.
// Loaded once the secrets are read (register.ts): no item can follow a provider before, and
// activation stays small.
export { HeightStatusBar } from './heightStatusBar';
export { NetworkStatusBars } from './networkStatusBars';
