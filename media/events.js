// Watch Events console: appends the lines the extension posts (eventConsole.ts), keeps at most
// MAX_LINES in the page, filters them as typed, expands a line into its JSON on click. Every text
// from the server goes in with textContent, never innerHTML.
// @ts-check
(function () {
  /** @typedef {import('../src/ui/base/webviewMessages').EventsFromPage} FromPage */
  /** @typedef {import('../src/ui/base/webviewMessages').EventsToPage} ToPage */
  /** @type {VsCodeApi<FromPage>} */
  const vscode = acquireVsCodeApi();
  const MAX_LINES = 5000;
  const texts = readTexts();
  const list = /** @type {HTMLOListElement} */ (document.getElementById('lines'));
  const empty = /** @type {HTMLElement} */ (document.getElementById('empty'));
  const stateEl = /** @type {HTMLElement} */ (document.getElementById('state'));
  const counts = /** @type {HTMLElement} */ (document.getElementById('counts'));
  const filter = /** @type {HTMLInputElement} */ (document.getElementById('filter'));
  const pause = /** @type {HTMLButtonElement} */ (document.getElementById('pause'));
  let paused = false;
  let trimmedNoted = false;
  /** The newest line shown: the first batch after 'ready' may repeat lines already posted. */
  let lastSeq = 0;
  /** @type {Map<number, HTMLLIElement>} */
  const bySeq = new Map();

  function readTexts() {
    try {
      return JSON.parse(document.body.dataset.l10n || '{}') || {};
    } catch {
      return {};
    }
  }

  function format(template, ...args) {
    return String(template || '').replace(/\{(\d+)\}/g, (m, i) => (args[Number(i)] !== undefined ? String(args[Number(i)]) : m));
  }

  /** HH:MM:SS.mmm in local time (as the gap lines). */
  function clock(iso) {
    const d = new Date(iso);
    const p = (n, w = 2) => String(n).padStart(w, '0');
    return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
  }

  function span(cls, text) {
    const s = document.createElement('span');
    s.className = cls;
    s.textContent = text;
    return s;
  }

  function matches(li) {
    const q = filter.value.trim().toLowerCase();
    return !q || (li.dataset.search || '').includes(q);
  }

  function note(text) {
    addLine({ seq: -1, at: new Date().toISOString(), kind: 'note', summary: text, hasDetail: false });
  }

  /** One line's element (listeners are on the list, not on each line). */
  function makeLine(line) {
    const li = document.createElement('li');
    li.className = `kind-${line.kind}`;
    li.dataset.seq = String(line.seq);
    li.appendChild(span('time', clock(line.at)));
    if (line.height) li.appendChild(span('height', '#' + line.height));
    if (line.type) li.appendChild(span('type', line.type));
    if (line.txHash) {
      const a = document.createElement('button');
      a.type = 'button';
      a.className = 'hash';
      a.title = texts.openTx || 'Open receipt (Look Up of this transaction)';
      a.textContent = line.txHash;
      li.appendChild(a);
    }
    li.appendChild(span('summary', line.summary));
    li.dataset.search = [line.type, line.height, line.txHash, line.summary].filter(Boolean).join(' ').toLowerCase();
    if (line.hasDetail) {
      li.classList.add('expandable');
      li.tabIndex = 0;
      bySeq.set(line.seq, li);
    }
    li.hidden = !matches(li);
    return li;
  }

  function addLine(line) {
    list.appendChild(makeLine(line));
    trim();
  }

  /** Removes the oldest lines past MAX_LINES, all at once. */
  function trim() {
    let excess = list.childElementCount - MAX_LINES;
    if (excess <= 0) return;
    while (excess-- > 0) {
      const first = /** @type {HTMLLIElement} */ (list.firstElementChild);
      bySeq.delete(Number(first.dataset.seq));
      first.remove();
    }
    if (!trimmedNoted) {
      trimmedNoted = true;
      counts.title = texts.trimmed || '';
    }
  }

  /** A batch: only its newest MAX_LINES lines are built, in one fragment, one insertion. */
  function addLines(lines) {
    const fresh = [];
    for (const line of lines) {
      if (line.seq <= lastSeq) continue;
      lastSeq = line.seq;
      fresh.push(line);
    }
    const fragment = document.createDocumentFragment();
    for (const line of fresh.length > MAX_LINES ? fresh.slice(-MAX_LINES) : fresh) fragment.appendChild(makeLine(line));
    list.appendChild(fragment);
    trim();
  }

  function toggle(li) {
    const open = li.querySelector('pre');
    if (open) return open.remove();
    vscode.postMessage({ type: 'detail', seq: Number(li.dataset.seq) });
  }

  list.addEventListener('click', (ev) => {
    const target = /** @type {HTMLElement} */ (ev.target);
    if (target.closest('pre')) return;
    const li = /** @type {HTMLLIElement | null} */ (target.closest('li'));
    if (!li) return;
    if (target.closest('button.hash')) {
      vscode.postMessage({ type: 'openTx', seq: Number(li.dataset.seq) });
      return;
    }
    if (li.classList.contains('expandable')) toggle(li);
  });
  list.addEventListener('keydown', (ev) => {
    const li = /** @type {HTMLElement} */ (ev.target);
    if (li.tagName !== 'LI' || !li.classList.contains('expandable')) return;
    if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      toggle(li);
    }
  });

  function applyFilter() {
    for (const li of Array.from(list.children)) /** @type {HTMLElement} */ (li).hidden = !matches(li);
  }

  /** After an action of the in-editor tests: what the page shows. */
  function reportState() {
    let shown = 0;
    for (const li of Array.from(list.children)) if (!(/** @type {HTMLElement} */ (li).hidden)) shown++;
    vscode.postMessage({ type: 'testState', shown, total: list.childElementCount, paused, filter: filter.value });
  }

  window.addEventListener('message', (event) => {
    const m = /** @type {ToPage} */ (event.data);
    if (m.type === 'lines') {
      const atBottom = window.innerHeight + window.scrollY >= document.body.scrollHeight - 40;
      if (m.skipped > 0) note(format(texts.skipped, m.skipped));
      addLines(m.lines);
      empty.hidden = list.childElementCount > 0;
      if (atBottom) window.scrollTo(0, document.body.scrollHeight);
    } else if (m.type === 'state') {
      const s = m.state;
      paused = s.paused;
      pause.textContent = paused ? texts.resume || 'Resume' : texts.pause || 'Pause';
      const label = texts[s.state] || s.state;
      stateEl.textContent = (paused ? `${label} (${texts.paused || 'paused'})` : label) + (s.detail ? ` — ${s.detail}` : '');
      stateEl.className = `state-${s.state}`;
      counts.textContent = format(texts.counts, s.received, s.stored, s.evicted, s.ratePerSecond, s.gaps);
    } else if (m.type === 'detail') {
      const li = bySeq.get(m.seq);
      if (!li || li.querySelector('pre')) return;
      const pre = document.createElement('pre');
      pre.textContent = m.text;
      li.appendChild(pre);
    } else if (m.type === 'test') {
      // The in-editor tests drive the page's own controls (eventConsole.ts `testing`).
      if (typeof m.filter === 'string') {
        filter.value = m.filter;
        applyFilter();
      } else if (m.click === 'pause' || m.click === 'clear') {
        document.getElementById(m.click)?.click();
      }
      setTimeout(reportState, 50);
    }
  });

  filter.addEventListener('input', applyFilter);
  pause.addEventListener('click', () => vscode.postMessage({ type: paused ? 'resume' : 'pause' }));
  document.getElementById('clear')?.addEventListener('click', () => {
    list.replaceChildren();
    bySeq.clear();
    empty.hidden = false;
    vscode.postMessage({ type: 'clear' });
  });
  document.getElementById('export')?.addEventListener('click', () => vscode.postMessage({ type: 'export' }));
  vscode.postMessage({ type: 'ready' });
})();
