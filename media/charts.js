// Compare Providers charts: per provider, latency over time and blocks behind over time for the
// chosen interface, and a latency sparkline in each table row; drawn with uPlot (media/vendor/,
// bundled: no network), coloured from the theme's CSS variables and redrawn when the theme
// changes. Keyboard: the interface select and one checkbox per provider; each chart has a label.
// @ts-check
(function () {
  const texts = (() => {
    try {
      return (JSON.parse(document.body.dataset.l10n || '{}') || {}).chart || {};
    } catch {
      return {};
    }
  })();
  const PALETTE = ['blue', 'orange', 'green', 'purple', 'red', 'yellow'];
  /** @type {any[]} */
  let history = [];
  let iface = '';
  const hidden = new Set();
  /** @type {any[]} */
  let charts = [];
  /** @type {any[]} */
  let sparks = [];

  function cssVar(name, fallback) {
    const v = getComputedStyle(document.body).getPropertyValue(name).trim();
    return v || fallback;
  }
  function color(i) {
    return cssVar(`--vscode-charts-${PALETTE[i % PALETTE.length]}`, ['#3794ff', '#d18616', '#89d185', '#b180d7', '#f14c4c', '#cca700'][i % 6]);
  }
  function format(template, ...args) {
    return String(template).replace(/\{(\d+)\}/g, (m, i) => (args[Number(i)] !== undefined ? String(args[Number(i)]) : m));
  }

  function axes() {
    const stroke = cssVar('--vscode-foreground', '#888');
    const grid = { stroke: cssVar('--vscode-editorWidget-border', '#8884'), width: 1 };
    return [
      // Probes are seconds apart at least: no sub-second ticks.
      { stroke, grid, ticks: grid, space: 70, incrs: [1, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200] },
      { stroke, grid, ticks: grid, size: 50 },
    ];
  }

  /** The providers of the chosen interface, each one series. */
  function seriesOf() {
    return history.filter((h) => h.iface === iface);
  }

  function drawChart(el, column, label) {
    const list = seriesOf();
    const shown = list.filter((h) => h.points.length > 0);
    if (!el) return;
    el.replaceChildren();
    if (shown.length === 0 || typeof uPlot === 'undefined') {
      const p = document.createElement('p');
      p.textContent = texts.noData || 'No probes yet this session.';
      el.appendChild(p);
      return;
    }
    // A provider's down probes have no value: each such provider also gets a "down" series at 0
    // (dashed, with points), so a provider that is down has a line of its own, not nothing.
    const downOf = shown.filter((h) => h.points.some((p) => p[3] === 'down'));
    const data = uPlot.join([
      ...shown.map((h) => [h.points.map((p) => p[0]), h.points.map((p) => p[column])]),
      ...downOf.map((h) => [h.points.map((p) => p[0]), h.points.map((p) => (p[3] === 'down' ? 0 : null))]),
    ]);
    const width = Math.max(320, Math.min(1100, document.body.clientWidth - 48));
    const chart = new uPlot(
      {
        width,
        height: 200,
        legend: { show: true },
        cursor: { drag: { x: false, y: false } },
        // y follows the data (uPlot's default for all zeros is 0-100): 0 to a little above the highest value.
        scales: { x: { time: true }, y: { range: (_u, min, max) => [Math.min(0, min ?? 0), max > 0 ? Math.ceil(max * 1.15) : 1] } },
        axes: axes(),
        series: [
          {},
          ...shown.map((h) => ({
            label: `${h.provider} · ${label}`,
            stroke: color(list.indexOf(h)),
            width: 2,
            spanGaps: false,
            show: !hidden.has(h.provider),
            points: { show: h.points.length < 3 },
          })),
          ...downOf.map((h) => ({
            label: `${h.provider} · ${texts.down || 'down'}`,
            stroke: color(list.indexOf(h)),
            width: 2,
            dash: [4, 4],
            spanGaps: false,
            show: !hidden.has(h.provider),
            points: { show: true, size: 6 },
          })),
        ],
      },
      data,
      el,
    );
    charts.push(chart);
  }

  function drawControls() {
    const select = /** @type {HTMLSelectElement|null} */ (document.getElementById('chart-iface'));
    const fieldset = document.getElementById('chart-series');
    if (!select || !fieldset) return;
    const ifaces = [];
    for (const h of history) if (!ifaces.some((i) => i.iface === h.iface)) ifaces.push({ iface: h.iface, label: h.label });
    if (!ifaces.some((i) => i.iface === iface)) iface = ifaces[0] ? ifaces[0].iface : '';
    select.replaceChildren(
      ...ifaces.map((i) => {
        const o = document.createElement('option');
        o.value = i.iface;
        o.textContent = i.label;
        o.selected = i.iface === iface;
        return o;
      }),
    );
    const legend = fieldset.querySelector('legend');
    fieldset.replaceChildren(...(legend ? [legend] : []));
    seriesOf().forEach((h, i) => {
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.checked = !hidden.has(h.provider);
      box.addEventListener('change', () => {
        if (box.checked) hidden.delete(h.provider);
        else hidden.add(h.provider);
        draw();
      });
      const swatch = document.createElement('span');
      swatch.className = 'swatch';
      swatch.style.background = color(i);
      label.append(box, swatch, document.createTextNode(h.provider));
      fieldset.appendChild(label);
    });
  }

  function draw() {
    for (const c of charts) c.destroy();
    charts = [];
    drawChart(document.getElementById('chart-latency'), 1, texts.latency || 'latency ms');
    drawChart(document.getElementById('chart-behind'), 2, texts.behind || 'blocks behind');
  }

  /** A latency sparkline for one row, into `cell` (called by compare.js for each row it renders). */
  function sparkline(cell, provider, ifaceLabel) {
    const h = history.find((x) => x.provider === provider && x.label === ifaceLabel);
    const pts = h ? h.points.filter((p) => p[1] !== null) : [];
    if (pts.length === 0 || typeof uPlot === 'undefined') {
      cell.textContent = '—';
      return;
    }
    const box = document.createElement('div');
    box.className = 'spark';
    box.setAttribute('role', 'img');
    box.setAttribute('aria-label', format(texts.sparkline || 'Latency of {0} over the session: {1} probes, last {2} ms', provider, pts.length, pts[pts.length - 1][1]));
    cell.appendChild(box);
    const i = history.filter((x) => x.iface === h.iface).indexOf(h);
    const chart = new uPlot(
      {
        width: 110,
        height: 26,
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: false } },
        axes: [{ show: false }, { show: false }],
        series: [{}, { stroke: color(Math.max(0, i)), width: 1.5, points: { show: pts.length < 3 } }],
      },
      [pts.map((p) => p[0]), pts.map((p) => p[1])],
      box,
    );
    sparks.push(chart);
  }

  function clearSparklines() {
    for (const c of sparks) c.destroy();
    sparks = [];
  }

  const select = document.getElementById('chart-iface');
  if (select)
    select.addEventListener('change', () => {
      iface = /** @type {HTMLSelectElement} */ (select).value;
      drawControls();
      draw();
    });
  // The theme changed (VS Code swaps the body's class): colours come from CSS variables, so redraw.
  new MutationObserver(() => {
    drawControls();
    draw();
    window.dispatchEvent(new Event('chain-endpoints-redraw'));
  }).observe(document.body, { attributes: true, attributeFilter: ['class'] });

  window.chainCharts = {
    update(next) {
      history = Array.isArray(next) ? next : [];
      drawControls();
      draw();
    },
    sparkline,
    clearSparklines,
  };
})();
