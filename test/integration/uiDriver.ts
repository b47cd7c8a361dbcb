// Client for the runner's UI driver: integration tests run inside the extension host and cannot reach
// Playwright, so the runner (scripts/vscode/uiDriverServer.mjs) listens on a loopback port given in
// CHAIN_ENDPOINTS_UI_DRIVER and performs these commands on the workbench page.
//   import { ui } from './uiDriver';
//   if (ui.available) await ui.screenshot('tree.png');   // -> test-artifacts/tree.png
import * as http from 'http';

export type UiCommand =
  | { op: 'ping' }
  | { op: 'screenshot'; name: string; selector?: string; fullPage?: boolean }
  | { op: 'click'; selector: string; button?: 'left' | 'right' | 'middle'; clickCount?: number; timeoutMs?: number }
  | { op: 'dblclick'; selector: string; timeoutMs?: number }
  | { op: 'hover'; selector: string; timeoutMs?: number }
  | { op: 'text'; selector: string; timeoutMs?: number }
  | { op: 'attr'; selector: string; name: string; timeoutMs?: number }
  | { op: 'count'; selector: string }
  | { op: 'waitFor'; selector: string; timeoutMs?: number; state?: 'attached' | 'detached' | 'visible' | 'hidden' }
  | { op: 'press'; key: string }
  | { op: 'type'; text: string }
  | { op: 'frameWidths'; selector: string };

export class UiDriver {
  readonly endpoint: string | undefined;

  constructor(endpoint: string | undefined = process.env.CHAIN_ENDPOINTS_UI_DRIVER) {
    if (endpoint && /^\d+$/.test(endpoint)) endpoint = `http://127.0.0.1:${endpoint}/`;
    this.endpoint = endpoint || undefined;
  }

  /** False when the tests run without a driver (e.g. under @vscode/test-electron without CDP). */
  get available(): boolean {
    return this.endpoint !== undefined;
  }

  send<T = unknown>(cmd: UiCommand): Promise<T> {
    const endpoint = this.endpoint;
    if (!endpoint) return Promise.reject(new Error('UI driver not available (CHAIN_ENDPOINTS_UI_DRIVER is not set)'));
    const body = JSON.stringify(cmd);
    return new Promise<T>((resolve, reject) => {
      const req = http.request(
        endpoint,
        { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          let data = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (data += c));
          res.on('end', () => {
            try {
              const r = JSON.parse(data) as { ok: boolean; value?: T; error?: string };
              if (r.ok) resolve(r.value as T);
              else reject(new Error(`ui ${cmd.op} failed: ${r.error}`));
            } catch (e) {
              reject(new Error(`ui ${cmd.op}: bad answer ${JSON.stringify(data)}`));
            }
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  /** Saves a PNG of the page (or of one element) in test-artifacts/; resolves with its path. */
  screenshot(name: string, opts: { selector?: string; fullPage?: boolean } = {}): Promise<string> {
    return this.send<string>({ op: 'screenshot', name, ...opts });
  }
  click(selector: string, timeoutMs?: number): Promise<void> {
    return this.send<void>({ op: 'click', selector, timeoutMs });
  }
  rightClick(selector: string, timeoutMs?: number): Promise<void> {
    return this.send<void>({ op: 'click', selector, button: 'right', timeoutMs });
  }
  dblclick(selector: string, timeoutMs?: number): Promise<void> {
    return this.send<void>({ op: 'dblclick', selector, timeoutMs });
  }
  hover(selector: string, timeoutMs?: number): Promise<void> {
    return this.send<void>({ op: 'hover', selector, timeoutMs });
  }
  /** innerText of the first match. */
  text(selector: string, timeoutMs?: number): Promise<string> {
    return this.send<string>({ op: 'text', selector, timeoutMs });
  }
  attr(selector: string, name: string, timeoutMs?: number): Promise<string | null> {
    return this.send<string | null>({ op: 'attr', selector, name, timeoutMs });
  }
  count(selector: string): Promise<number> {
    return this.send<number>({ op: 'count', selector });
  }
  waitFor(selector: string, timeoutMs = 10_000, state: 'attached' | 'detached' | 'visible' | 'hidden' = 'visible'): Promise<void> {
    return this.send<void>({ op: 'waitFor', selector, timeoutMs, state });
  }
  /** Keyboard chord on the page, e.g. 'Escape', 'Control+Shift+P'. */
  /** The scroll and client widths of the webview document holding `selector`, and that element's text; null when none holds it. */
  frameWidths(selector: string): Promise<{ scrollWidth: number; clientWidth: number; text: string } | null> {
    return this.send<{ scrollWidth: number; clientWidth: number; text: string } | null>({ op: 'frameWidths', selector });
  }
  press(key: string): Promise<void> {
    return this.send<void>({ op: 'press', key });
  }
  type(text: string): Promise<void> {
    return this.send<void>({ op: 'type', text });
  }
}

export const ui = new UiDriver();
