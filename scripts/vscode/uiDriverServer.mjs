// @ts-check
// A loopback HTTP endpoint through which integration tests (running inside the extension host,
// which cannot reach Playwright) drive the workbench page. The runner passes its port to the
// extension host in the env var CHAIN_ENDPOINTS_UI_DRIVER; test/integration/uiDriver.ts is the client.
//
// POST / with a JSON body {"op": ..., ...}; answer {"ok": true, "value": ...} or {"ok": false, "error": "..."}.
//   screenshot {name, selector?, fullPage?} -> absolute path of the PNG written in screenshotsDir
//   click {selector, button?, clickCount?} | dblclick {selector} | hover {selector}
//   text {selector} -> innerText        | attr {selector, name} -> attribute value or null
//   count {selector} -> number of matches | waitFor {selector, timeoutMs?, state?}
//   press {key} (e.g. "Control+Shift+P") | type {text}
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const DEFAULT_TIMEOUT = 10_000;

/** @param {{ getPage: () => any, screenshotsDir: string, log?: (line: string) => void }} options */
export async function startUiDriverServer({ getPage, screenshotsDir, log = () => {} }) {
  async function perform(cmd) {
    const page = await getPage();
    if (!page) throw new Error('the workbench page is not open');
    const timeout = Number(cmd.timeoutMs) || DEFAULT_TIMEOUT;
    const loc = () => {
      if (typeof cmd.selector !== 'string' || !cmd.selector) throw new Error(`op "${cmd.op}" needs a "selector"`);
      return page.locator(cmd.selector).first();
    };
    switch (cmd.op) {
      case 'ping':
        return 'pong';
      case 'screenshot': {
        const base = path.basename(String(cmd.name || `screenshot-${Date.now()}.png`));
        const file = path.join(screenshotsDir, base.endsWith('.png') ? base : `${base}.png`);
        fs.mkdirSync(screenshotsDir, { recursive: true });
        if (cmd.selector) await loc().screenshot({ path: file, timeout });
        else await page.screenshot({ path: file, fullPage: !!cmd.fullPage, timeout });
        return file;
      }
      case 'click':
        await loc().click({ timeout, button: cmd.button, clickCount: cmd.clickCount });
        return true;
      case 'dblclick':
        await loc().dblclick({ timeout });
        return true;
      case 'hover':
        await loc().hover({ timeout });
        return true;
      case 'text':
        return await loc().innerText({ timeout });
      case 'attr':
        if (!cmd.name) throw new Error('op "attr" needs a "name"');
        return await loc().getAttribute(String(cmd.name), { timeout });
      case 'count':
        return await page.locator(cmd.selector).count();
      case 'waitFor':
        await loc().waitFor({ state: cmd.state || 'visible', timeout });
        return true;
      case 'press':
        await page.keyboard.press(String(cmd.key));
        return true;
      case 'type':
        await page.keyboard.type(String(cmd.text ?? ''));
        return true;
      case 'frameWidths': {
        // A webview's document widths and the text of `selector` (webview frames are nested iframes): the frame holding it.
        if (typeof cmd.selector !== 'string' || !cmd.selector) throw new Error('op "frameWidths" needs a "selector"');
        for (const frame of page.frames()) {
          const found = await frame
            .evaluate((sel) => {
              // Runs in the page: its own document.
              const doc = /** @type {any} */ (globalThis).document;
              const el = doc.querySelector(sel);
              if (!el) return undefined;
              const e = doc.scrollingElement || doc.documentElement;
              return { scrollWidth: e.scrollWidth, clientWidth: e.clientWidth, text: String(el.textContent || '').slice(0, 5000) };
            }, cmd.selector)
            .catch(() => undefined);
          if (found) return found;
        }
        return null;
      }
      default:
        throw new Error(`unknown op "${cmd.op}"`);
    }
  }

  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', async () => {
      let out;
      try {
        const cmd = JSON.parse(body || '{}');
        const value = await perform(cmd);
        out = { ok: true, value: value ?? null };
        if (cmd.op !== 'ping') log(`ui ${cmd.op} ${cmd.selector ?? cmd.name ?? cmd.key ?? ''} -> ok`);
      } catch (e) {
        // eslint-disable-next-line no-control-regex
        const msg = String(e && e.message ? e.message : e).replace(/\u001b\[[0-9;]*m/g, '');
        out = { ok: false, error: msg.split('\n').slice(0, 6).join('\n') };
        log(`ui command failed: ${out.error.split('\n')[0]}`);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(undefined));
  });
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    port,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections?.();
        server.close(() => r());
      }),
  };
}
