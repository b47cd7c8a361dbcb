// Compare Providers webview: renders rows posted by the extension, sorts on header click.
// @ts-check
(function () {
  /** @type {VsCodeApi<import('../src/ui/base/webviewMessages').CompareFromPage>} */
  const vscode = acquireVsCodeApi();
  // Texts translated by the extension (compareView.ts), as JSON in <body data-l10n>; English if absent.
  const texts = readTexts();
  const columns = [
    ['provider', 'Provider'],
    ['interface', 'Interface'],
    ['state', 'State'],
    ['height', 'Height'],
    ['behind', 'Behind'],
    ['medianMs', 'Median ms'],
    ['p90Ms', 'p90 ms'],
    ['successRate', 'Success'],
    ['rank', 'Rank'],
    ['rateLimitedUntil', 'Rate limit'],
    ['trend', 'Latency (session)'],
    ['serves', 'Serves'],
    ['earliest', 'Earliest block'],
    ['version', 'Version'],
    ['lastError', 'Last error'],
  ].map(([key, label]) => [key, (texts.columns && texts.columns[key]) || (texts.chartColumns && texts.chartColumns[key]) || label]);
  const numeric = new Set(['height', 'behind', 'medianMs', 'p90Ms', 'successRate', 'rank', 'earliest']);
  // media/charts.js (loaded first) draws the sparklines and the charts with uPlot.
  const charts = window.chainCharts;
  let rows = [];
  /** The networks (key, label, chainId, evmChainId, height, providers); grouped when more than one. */
  let networks = [];
  let sortKey = 'provider';
  let ascending = true;

  const thead = document.querySelector('#table thead');
  const tbody = document.querySelector('#table tbody');
  const empty = document.getElementById('empty');
  const updated = document.getElementById('updated');

  function readTexts() {
    try {
      return JSON.parse(document.body.dataset.l10n || '{}') || {};
    } catch {
      return {};
    }
  }

  /** `template` with {0}, {1}… replaced by `args` (the vscode.l10n.t placeholder form). */
  function format(template, ...args) {
    return template.replace(/\{(\d+)\}/g, (match, i) => (args[Number(i)] !== undefined ? String(args[Number(i)]) : match));
  }

  function compare(a, b) {
    const x = a[sortKey];
    const y = b[sortKey];
    if (x === y) return 0;
    if (x === null || x === undefined) return 1;
    if (y === null || y === undefined) return -1;
    let r;
    if (sortKey === 'height' || sortKey === 'behind' || sortKey === 'earliest') {
      r = BigInt(x) < BigInt(y) ? -1 : 1; // decimal strings, possibly past 2^53
    } else if (numeric.has(sortKey)) {
      r = Number(x) < Number(y) ? -1 : 1;
    } else {
      r = String(x).localeCompare(String(y));
    }
    return ascending ? r : -r;
  }

  function cell(key, value) {
    if (value === null || value === undefined) return '—';
    if (key === 'successRate') return `${Math.round(Number(value) * 100)}%`;
    if (key === 'height' || key === 'earliest') return BigInt(value).toLocaleString('en-US');
    if (key === 'rateLimitedUntil') return format(texts.rateLimitedUntil || 'until {0}', new Date(value).toLocaleTimeString());
    return String(value);
  }

  function render() {
    thead.replaceChildren();
    const tr = document.createElement('tr');
    for (const [key, label] of columns) {
      const th = document.createElement('th');
      th.scope = 'col';
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = label + (key === sortKey ? (ascending ? ' ▲' : ' ▼') : '');
      button.addEventListener('click', () => {
        ascending = key === sortKey ? !ascending : true;
        sortKey = key;
        render();
      });
      th.setAttribute('aria-sort', key === sortKey ? (ascending ? 'ascending' : 'descending') : 'none');
      th.appendChild(button);
      tr.appendChild(th);
    }
    thead.appendChild(tr);
    if (charts) charts.clearSparklines();
    tbody.replaceChildren();
    const sorted = [...rows].sort(compare);
    const groups =
      networks.length > 1
        ? networks.map((n) => ({ n, rows: sorted.filter((r) => n.providers.includes(r.provider)) }))
        : [{ n: undefined, rows: sorted }];
    for (const group of groups) {
      if (group.n) {
        const head = document.createElement('tr');
        head.className = 'network';
        const th = document.createElement('th');
        th.scope = 'rowgroup';
        th.colSpan = columns.length;
        const n = group.n;
        const parts = [n.label];
        if (n.chainId && n.chainId !== n.label) parts.push(n.chainId);
        if (n.evmChainId) parts.push(format(texts.evm || 'EVM {0}', n.evmChainId));
        if (n.height) parts.push(format(texts.network || 'height {0}', BigInt(n.height).toLocaleString('en-US')));
        th.textContent = parts.join(' · ');
        head.appendChild(th);
        tbody.appendChild(head);
      }
      renderRows(group.rows);
    }
    empty.hidden = rows.length > 0;
  }

  function renderRows(list) {
    for (const row of list) {
      const line = document.createElement('tr');
      line.className = `state-${row.state}`;
      for (const [key] of columns) {
        const td = document.createElement('td');
        if (key === 'trend') {
          line.appendChild(td);
          if (charts) charts.sparkline(td, row.provider, row.interface);
          continue;
        }
        td.textContent = cell(key, row[key]);
        if (key === 'lastError' && row.lastErrorAt) td.title = `${row.lastErrorAt}: ${row.lastError}`;
        if (key === 'state' && row.crossCheck) td.title = row.crossCheck;
        if (numeric.has(key)) td.className = 'num';
        line.appendChild(td);
      }
      tbody.appendChild(line);
    }
  }

  window.addEventListener('message', (event) => {
    const m = /** @type {import('../src/ui/base/webviewMessages').CompareToPage} */ (event.data);
    if (m && m.type === 'rows') {
      rows = m.rows;
      if (charts && m.history) charts.update(m.history);
      networks = Array.isArray(m.networks) ? m.networks : [];
      updated.textContent = format(texts.updated || 'updated {0}', new Date(m.at).toLocaleTimeString());
      render();
    }
  });
  document.getElementById('refresh').addEventListener('click', () => vscode.postMessage({ type: 'refresh' }));
  document.getElementById('export-json').addEventListener('click', () => vscode.postMessage({ type: 'export', format: 'json' }));
  document.getElementById('export-csv').addEventListener('click', () => vscode.postMessage({ type: 'export', format: 'csv' }));
  window.addEventListener('chain-endpoints-redraw', () => render());
  render();
  vscode.postMessage({ type: 'ready' });
})();
