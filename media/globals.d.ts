/* eslint-disable @typescript-eslint/no-explicit-any -- uPlot and the charts object are used loosely by the pages */
// What the webview pages find in their window (media/tsconfig.json).

/** The webview's channel to the extension; `T`: the messages the page may post (src/ui/webviewMessages.ts). */
interface VsCodeApi<T> {
  postMessage(message: T): void;
  getState(): unknown;
  setState(state: unknown): void;
}

/** One call per page; the page declares which messages it posts with a JSDoc type. */
declare function acquireVsCodeApi(): VsCodeApi<any>;

/** uPlot, loaded from media/vendor/ before charts.js (typed loosely: the page uses a few calls). */
declare const uPlot: any;

interface Window {
  /** media/charts.js: the charts of the Compare view, for media/compare.js. */
  chainCharts: any;
}
