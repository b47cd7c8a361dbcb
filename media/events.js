// Watch Events console: appends the lines the extension posts (eventConsole.ts), keeps at most
// MAX_LINES in the page, filters them as typed, expands a line into its JSON on click. Every text
// from the server goes in with textContent, never innerHTML.
// @ts-check
(function () {
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

  function addLine(line) {
    const li = document.createElement('li');
    li.className = `kind-${line.kind}`;
    li.appendChild(span('time', clock(line.at)));
    if (line.height) li.appendChild(span('height', '#' + line.height));
    if (line.type) li.appendChild(span('type', line.type));
    if (line.txHash) {
      const a = document.createElement('button');
      a.type = 'button';
      a.className = 'hash';
      a.title = texts.openTx || 'Look up this transaction';
      a.textContent = line.txHash;
      a.addEventListener('click', (ev) => {
        ev.stopPropagation();
        vscode.postMessage({ type: 'openTx', seq: line.seq });
      });
      li.appendChild(a);
    }
    li.appendChild(span('summary', line.summary));
    li.dataset.search = [line.type, line.height, line.txHash, line.summary].filter(Boolean).join(' ').toLowerCase();
    if (line.hasDetail) {
      li.classList.add('expandable');
      li.tabIndex = 0;
      const toggle = () => {
        const open = li.querySelector('pre');
        if (open) return open.remove();
        vscode.postMessage({ type: 'detail', seq: line.seq });
      };
      li.addEventListener('click', toggle);
      li.addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter' || ev.key === ' ') {
          ev.preventDefault();
          toggle();
        }
      });
      bySeq.set(line.seq, li);
    }
    li.hidden = !matches(li);
    list.appendChild(li);
    while (list.childElementCount > MAX_LINES) {
      const first = /** @type {HTMLLIElement} */ (list.firstElementChild);
      bySeq.forEach((v, k) => v === first && bySeq.delete(k));
      first.remove();
      if (!trimmedNoted) {
        trimmedNoted = true;
        counts.title = texts.trimmed || '';
      }
    }
  }

  window.addEventListener('message', (event) => {
    const m = event.data;
    if (m.type === 'lines') {
      const atBottom = window.innerHeight + window.scrollY >= document.body.scrollHeight - 40;
      if (m.skipped > 0) note(format(texts.skipped, m.skipped));
      for (const line of m.lines) {
        if (line.seq <= lastSeq) continue;
        lastSeq = line.seq;
        addLine(line);
      }
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
      pre.addEventListener('click', (ev) => ev.stopPropagation());
      li.appendChild(pre);
    }
  });

  filter.addEventListener('input', () => {
    for (const li of Array.from(list.children)) /** @type {HTMLElement} */ (li).hidden = !matches(li);
  });
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
