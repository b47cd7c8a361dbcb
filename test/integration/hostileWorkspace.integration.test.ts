// Hostile workspace and servers in the real editor (issue 34): a node whose /status answers a block
// time full of Markdown (a remote image fetched on hover, a command link, HTML). The status-bar
// tooltip must show it as text: the Markdown it gets has no image, link or HTML (markdown-it, linkify
// and HTML on), and where the runner gives a UI driver, the real hover shows no image or link and the
// node never sees the image fetched.

import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ActivatedApi as ChainEndpointsApi } from '../../src/extension';
import { activateExtension, closeAllEditors, setProviders, setSetting, sleep, waitFor } from './helpers';
import { ui } from './uiDriver';

// markdown-it has no types here (a devDependency used only by tests).
const MarkdownIt = require('markdown-it') as new (o: object) => { parse(src: string, env: object): Token[] };
interface Token {
  type: string;
  content: string;
  attrs: [string, string][] | null;
  children: Token[] | null;
}

const ITEM = '[id="chain-endpoints.chain-endpoints.chainEndpoints.height"], [id^="chain-endpoints.chain-endpoints"][id$="chainEndpoints.height"]';
const HOVER = '.workbench-hover, .monaco-hover';
const PROVIDER = 'Hostile node';

/** Links, images and HTML of a Markdown text. */
function unsafe(markdown: string): string[] {
  const out: string[] = [];
  const walk = (tokens: Token[]) => {
    for (const t of tokens) {
      if (t.type === 'link_open' || t.type === 'image' || t.type === 'html_inline' || t.type === 'html_block') {
        out.push(`${t.type} ${JSON.stringify(t.attrs)} ${JSON.stringify(t.content)}`);
      }
      if (t.children) walk(t.children);
    }
  };
  walk(new MarkdownIt({ linkify: true, html: true }).parse(markdown, {}));
  return out;
}

describe('hostile workspace: server text in the editor never becomes markup', function () {
  this.timeout(90_000);
  let api: ChainEndpointsApi;
  let server: http.Server;
  let base = '';
  let height = 100;
  const fetched: string[] = [];
  const time = () =>
    `2024-01-01T00:00:00Z ![t](${base}/track.png) [click](command:workbench.action.quit) <img src="${base}/img.png"> <${base}/auto> \`x\` | a | b |`;

  before(async () => {
    server = http.createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if (path !== '/status' && path !== '/') {
        fetched.push(path); // an image or a link followed: the tooltip made the editor fetch it
        res.writeHead(404).end();
        return;
      }
      height++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: -1,
          result: { node_info: { network: 'hostile-1' }, sync_info: { latest_block_height: String(height), latest_block_time: time() } },
        }),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // No WebSocket: the status bar polls /status.
    await setProviders([{ name: PROVIDER, consensusHttp: base }]);
    await setSetting('statusBar.provider', PROVIDER);
    api = await activateExtension();
  });

  after(async () => {
    await setSetting('statusBar.provider', undefined);
    await closeAllEditors();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it("the status bar's tooltip shows the node's hostile block time as text: no image, link or HTML", async () => {
    await waitFor('a height from the hostile node', () => api.currentHeight()?.provider === PROVIDER && api.currentHeight()?.height, 30_000);
    const md = await waitFor('the tooltip with the block time', () => {
      const t = api.testing.statusBarTooltip();
      return t && t.includes('2024') ? t : undefined;
    });
    assert.deepEqual(unsafe(md), [], md);
    // The value is shown as text (escaped, not dropped), cut to a block time's length with its full length said.
    const shown = md.replace(/\\(.)/g, '$1');
    assert.ok(shown.includes(`2024-01-01T00:00:00Z ![t](${base}/track.png)`), md);
    assert.match(shown, new RegExp(`… \\(${time().length} characters\\)`), md);
  });

  it('in the real editor the hover shows no image or link, and nothing is fetched from the node', async function () {
    if (!ui.available) this.skip();
    await ui.hover(ITEM, 10_000);
    await ui.waitFor(HOVER, 10_000);
    const text = await ui.text(HOVER);
    assert.match(text, /2024-01-01T00:00:00Z/, text);
    assert.match(text, /track\.png/, 'the hostile text is shown as text');
    assert.equal(await ui.count(`:is(${HOVER}) img`), 0, 'no image in the hover');
    assert.equal(await ui.count(`:is(${HOVER}) a`), 0, 'no link in the hover');
    await sleep(1000);
    await ui.screenshot('hostile-status-bar-tooltip.png');
    assert.deepEqual(fetched, [], 'requests the hover made to the node');
    await ui.press('Escape');
  });
});
