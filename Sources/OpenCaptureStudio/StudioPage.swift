/// The studio's page: one HTML document, its style sheet and its script (served from memory, so a
/// copied binary needs no resource bundle).
enum StudioPage {
    static func html(token: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="studio-token" content="\(token)">
        <title>OpenCapture Studio</title>
        <link rel="icon" href="data:,">
        <link rel="stylesheet" href="/studio.css">
        </head>
        <body>
        <header><span class="logo">●</span> OpenCapture <b>Studio</b><span id="library" class="muted"></span></header>
        <main>
          <section class="camera">
            <div class="viewfinder" id="viewfinder">
              <img id="last" alt="" hidden>
              <div class="vf-note" id="vf-note">Viewfinder</div>
              <div class="flash-overlay" id="flash-overlay"></div>
            </div>
            <div class="modes" id="modes" role="tablist"></div>
            <div class="controls">
              <label>Camera <select id="device"></select></label>
              <label>Light <select id="lighting"></select></label>
              <label>Flash <select id="flash"><option>off</option><option>auto</option><option>on</option></select></label>
              <label class="bias">Exposure <input id="bias" type="range" min="-2" max="2" step="0.5" value="0"><output id="bias-value">0 EV</output></label>
              <button id="shutter" class="shutter" aria-label="Take photo"></button>
            </div>
          </section>
          <section class="side">
            <h2>Timeline <span id="timeline-title" class="muted"></span></h2>
            <div id="timeline" class="timeline"><p class="muted">Press the shutter: each delegate callback and processing step appears here, to scale, as it happens.</p></div>
            <h2>Gallery <span id="count" class="muted"></span></h2>
            <div id="gallery" class="gallery"></div>
            <button id="more" class="btn more" hidden>Show more</button>
          </section>
        </main>
        <div id="detail" class="detail" hidden>
          <div class="detail-box">
            <button id="close" class="close" aria-label="Close">×</button>
            <div id="detail-body"></div>
          </div>
        </div>
        <div id="toast" class="toast" hidden></div>
        <script src="/studio.js"></script>
        </body>
        </html>
        """
    }

    static let css = """
    :root { --bg:#0d0f12; --panel:#171a1f; --line:#262b33; --text:#e8eaed; --muted:#8b93a1; --accent:#ffcc33; --blue:#4fa3ff; }
    * { box-sizing:border-box; }
    body { margin:0; font:15px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif; background:var(--bg); color:var(--text); }
    header { padding:14px 22px; border-bottom:1px solid var(--line); font-size:18px; letter-spacing:.2px; }
    header .logo { color:var(--accent); } header b { font-weight:600; }
    header .muted { float:right; font-size:13px; margin-top:3px; }
    .muted { color:var(--muted); font-weight:400; font-size:13px; }
    main { display:grid; grid-template-columns:minmax(0,1.35fr) minmax(0,1fr); gap:22px; padding:22px; }
    .camera, .side { min-width:0; }
    .viewfinder { position:relative; aspect-ratio:4/3; background:#000; border-radius:14px; overflow:hidden; border:1px solid var(--line); }
    .viewfinder img { width:100%; height:100%; object-fit:contain; display:block; }
    .vf-note { position:absolute; left:12px; top:12px; right:12px; padding:6px 10px; background:rgba(0,0,0,.55); border-radius:8px; font-size:12.5px; color:#cfd6e0; }
    .flash-overlay { position:absolute; inset:0; background:#fff; opacity:0; pointer-events:none; transition:opacity .25s; }
    .flash-overlay.on { opacity:.85; transition:none; }
    .modes { display:flex; flex-wrap:wrap; gap:8px; margin:16px 0 12px; justify-content:center; }
    .modes button { background:none; border:1px solid var(--line); color:var(--text); padding:7px 14px; border-radius:999px; cursor:pointer; font:inherit; font-size:13.5px; }
    .modes button.active { background:var(--accent); color:#111; border-color:var(--accent); font-weight:600; }
    .modes button:disabled { opacity:.38; cursor:not-allowed; }
    .controls { display:flex; flex-wrap:wrap; align-items:center; gap:14px 18px; justify-content:center; }
    .controls label { display:flex; flex-direction:column; gap:4px; font-size:12px; color:var(--muted); }
    select, input[type=range] { background:var(--panel); color:var(--text); border:1px solid var(--line); border-radius:8px; padding:6px 8px; font:inherit; font-size:14px; }
    .bias output { color:var(--text); font-size:13px; }
    .shutter { width:74px; height:74px; border-radius:50%; border:4px solid #fff; background:var(--text); cursor:pointer; box-shadow:0 0 0 3px #000 inset; transition:transform .1s; }
    .shutter:active { transform:scale(.94); } .shutter.busy { background:#666; cursor:progress; }
    h2 { font-size:15px; font-weight:600; margin:0 0 10px; }
    .timeline { background:var(--panel); border:1px solid var(--line); border-radius:12px; padding:12px 14px; margin-bottom:22px; min-height:120px; }
    .stage { display:grid; grid-template-columns:170px 1fr 70px; align-items:center; gap:10px; font-size:12.5px; margin:5px 0; animation:in .25s ease-out; }
    .stage .bar { height:10px; position:relative; background:#1f242b; border-radius:5px; }
    .stage .bar i { position:absolute; top:0; bottom:0; border-radius:5px; background:var(--blue); min-width:3px; }
    .stage.step .bar i { background:var(--accent); }
    .stage .t { text-align:right; color:var(--muted); font-variant-numeric:tabular-nums; }
    @keyframes in { from { opacity:0; transform:translateY(3px); } }
    .gallery { display:grid; grid-template-columns:repeat(auto-fill,minmax(132px,1fr)); gap:10px; }
    .card { background:var(--panel); border:1px solid var(--line); border-radius:10px; overflow:hidden; cursor:pointer; padding:0; color:inherit; font:inherit; text-align:left; }
    .card img { width:100%; aspect-ratio:4/3; object-fit:cover; display:block; background:#000; }
    .card.video { position:relative; }
    .card.video img + span::before { content:'▶'; position:absolute; left:8px; top:8px; font-size:13px; padding:2px 7px; border-radius:6px; background:rgba(0,0,0,.55); color:#fff; }
    .card .poster { aspect-ratio:4/3; display:flex; align-items:center; justify-content:center; background:#000; color:var(--muted); font-size:28px; }
    .single video { width:100%; border-radius:8px; display:block; background:#000; }
    .card span { display:block; padding:6px 8px; font-size:12px; color:var(--muted); }
    .badge { display:inline-block; font-size:10.5px; padding:1px 6px; border-radius:6px; background:#2a3038; color:#cfd6e0; margin-left:4px; }
    .detail { position:fixed; inset:0; background:rgba(0,0,0,.72); display:flex; align-items:flex-start; justify-content:center; overflow:auto; padding:28px 14px; }
    .detail[hidden] { display:none; }
    .live { position:relative; }
    .live img, .live video { width:100%; display:block; border-radius:10px; }
    .live video { position:absolute; inset:0; height:100%; object-fit:contain; opacity:0; transition:opacity .15s; background:#000; }
    .live-badge { position:absolute; left:10px; top:10px; font-size:11px; letter-spacing:.08em; padding:3px 7px; border-radius:6px; background:rgba(0,0,0,.55); color:#ffd60a; }
    .detail-box { position:relative; width:min(1100px,100%); background:var(--panel); border:1px solid var(--line); border-radius:14px; padding:18px; }
    .close { position:absolute; right:12px; top:8px; background:none; border:none; color:var(--text); font-size:28px; cursor:pointer; }
    .pair { display:grid; grid-template-columns:1fr 1fr; gap:12px; } .pair figure, .single figure { margin:0; }
    figure img { width:100%; border-radius:8px; display:block; background:#000; } figcaption { font-size:12px; color:var(--muted); margin-top:4px; }
    .compare { position:relative; border-radius:8px; overflow:hidden; } .compare img { width:100%; display:block; }
    .compare .after { position:absolute; inset:0; clip-path:inset(0 0 0 50%); }
    .compare input { width:100%; margin-top:8px; }
    table { border-collapse:collapse; width:100%; font-size:12.5px; margin-top:14px; } td { border-top:1px solid var(--line); padding:4px 6px; vertical-align:top; }
    td:first-child { color:var(--muted); width:34%; }
    .files a { color:var(--blue); margin-right:14px; font-size:13px; }
    .more { display:block; margin:12px auto 0; }
    .more[hidden] { display:none; }
    .btn { background:var(--accent); color:#111; border:none; border-radius:8px; padding:7px 12px; font:inherit; font-weight:600; cursor:pointer; }
    .toast { position:fixed; left:50%; bottom:22px; transform:translateX(-50%); background:#3a1d1d; border:1px solid #7a3434; padding:10px 16px; border-radius:10px; font-size:13.5px; }
    @media (max-width: 820px) {
      main { grid-template-columns:1fr; padding:12px; gap:16px; }
      .stage { grid-template-columns:120px 1fr 56px; }
      .pair { grid-template-columns:1fr; }
      header .muted { display:none; }
    }
    """

    static let script = """
    'use strict';
    const token = document.querySelector('meta[name="studio-token"]').content;
    const $ = (id) => document.getElementById(id);
    // current: this tab's capture in flight; early: events that came before its id did (the POST's answer).
    let state = null, mode = 'photo', current = null, events = [], busy = false, early = [];

    function toast(text) { const t = $('toast'); t.textContent = text; t.hidden = false; clearTimeout(t.timer); t.timer = setTimeout(() => t.hidden = true, 5000); }

    async function api(path, options) {
      const response = await fetch(path, options);
      const body = await response.json();
      if (!response.ok) throw new Error(body.error || response.statusText);
      return body;
    }

    function option(select, value, label) { const o = document.createElement('option'); o.value = value; o.textContent = label; select.appendChild(o); }

    async function init() {
      state = await api('/api/state');
      $('library').textContent = state.library;
      for (const d of state.devices) option($('device'), d.id, d.label);
      for (const l of state.lightings) option($('lighting'), l, l);
      $('lighting').value = state.lighting;
      $('vf-note').textContent = state.viewfinder.reason;
      if (state.viewfinder.available) {
        const live = document.createElement('img'); live.id = 'live-view'; live.alt = 'viewfinder'; live.src = state.viewfinder.url;
        $('viewfinder').insertBefore(live, $('vf-note'));
        setTimeout(() => $('vf-note').hidden = true, 4000);
      }
      for (const m of state.modes) {
        const b = document.createElement('button');
        b.textContent = m.label; b.dataset.mode = m.id; b.disabled = !m.available;
        if (!m.available) b.title = 'Unavailable: ' + m.reason;
        b.onclick = () => selectMode(m.id);
        $('modes').appendChild(b);
      }
      selectMode('photo');
      $('bias').oninput = () => $('bias-value').textContent = $('bias').value + ' EV';
      $('shutter').onclick = shoot;
      $('close').onclick = closeDetail;
      $('detail').onclick = (e) => { if (e.target === $('detail')) closeDetail(); };
      const source = new EventSource('/api/events');
      source.onmessage = (m) => onEvent(JSON.parse(m.data));
      $('more').onclick = moreGallery;
      // The next page comes as the "Show more" button scrolls into view (or when it is pressed).
      new IntersectionObserver((seen) => { if (seen.some(e => e.isIntersecting)) moreGallery(); }).observe($('more'));
      await refreshGallery();
    }

    // The viewfinder streams only while it can be seen: the detail view covers it, and the camera's
    // stream would take CPU from what the detail view asks for (a portrait, a RAW develop).
    function pauseViewfinder(paused) {
      const live = $('live-view');
      if (!live || !state.viewfinder.available) return;
      if (paused) live.removeAttribute('src'); else live.src = state.viewfinder.url + '?t=' + Date.now();
    }
    function showDetail() { $('detail').hidden = false; pauseViewfinder(true); }
    function closeDetail() { $('detail').hidden = true; pauseViewfinder(false); }

    function selectMode(id) {
      mode = id;
      for (const b of $('modes').children) b.classList.toggle('active', b.dataset.mode === id);
      const measuresDepth = (d) => state.devices.some(e => e.id === d && e.depth);
      if (id === 'depth' && !measuresDepth($('device').value)) $('device').value = state.devices.find(e => e.depth).id;
      // The camera gets ready for the mode now (a Live Photo keeps the 1.5 s before the shutter).
      api('/api/mode', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Studio-Token': token },
                         body: JSON.stringify({ mode: id, device: $('device').value, lighting: $('lighting').value }) }).catch(() => {});
    }

    async function shoot() {
      if (busy) return;
      busy = true; $('shutter').classList.add('busy');
      events = []; current = null; early = []; drawTimeline();
      try {
        const body = { mode, device: $('device').value, lighting: $('lighting').value, flash: $('flash').value, bias: parseFloat($('bias').value) };
        const r = await api('/api/capture', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Studio-Token': token }, body: JSON.stringify(body) });
        current = r.capture;
        $('timeline-title').textContent = r.capture;
        for (const e of early.splice(0)) if (e.capture === current) apply(e);
        drawTimeline();
      } catch (e) { toast(e.message); done(); }
    }

    function done() { busy = false; $('shutter').classList.remove('busy'); }

    // Every tab hears every capture: its own fill its timeline; any capture saved (another tab's too) refreshes the
    // gallery.
    function onEvent(e) {
      if (e.type === 'done' && e.capture !== current) refreshGallery(false);
      if (busy && !current) { early.push(e); return; }
      if (e.capture !== current) return;
      apply(e);
      drawTimeline();
    }

    function apply(e) {
      if (e.type === 'stage') {
        if (e.name === 'willCapturePhoto') { const f = $('flash-overlay'); f.classList.add('on'); setTimeout(() => f.classList.remove('on'), 60); }
        events.push({ name: e.name, start: e.t, end: e.t, detail: e.detail, kind: 'stage' });
      } else if (e.type === 'step') {
        events.push({ name: e.name, start: e.start, end: e.end, kind: 'step' });
      } else if (e.type === 'done') {
        done(); refreshGallery(true);
      } else if (e.type === 'error') {
        done(); toast(e.message);
      }
    }

    function drawTimeline() {
      const box = $('timeline');
      if (!events.length) { box.innerHTML = '<p class="muted">' + (busy ? 'Waiting for the first callback…' : 'Press the shutter: each delegate callback and processing step appears here, to scale, as it happens.') + '</p>'; return; }
      const total = Math.max(1, ...events.map(e => e.end));
      box.innerHTML = '';
      let previous = 0;
      for (const e of events) {
        const row = document.createElement('div');
        row.className = 'stage' + (e.kind === 'step' ? ' step' : '');
        row.dataset.name = e.name;
        const from = e.kind === 'step' ? e.start : previous, to = e.end;
        row.innerHTML = '<span></span><div class="bar"><i></i></div><span class="t"></span>';
        row.children[0].textContent = e.name + (e.detail ? ' ' + e.detail : '');
        row.children[0].title = row.children[0].textContent;
        const bar = row.querySelector('i');
        bar.style.left = (100 * from / total) + '%';
        bar.style.width = Math.max(0.6, 100 * (to - from) / total) + '%';
        row.children[2].textContent = to.toFixed(0) + ' ms';
        box.appendChild(row);
        if (e.kind === 'stage') previous = e.end;
      }
    }

    function mainAsset(c) { return c.assets.fused || c.assets.photo || c.assets['frame-2'] || Object.values(c.assets)[0]; }

    // Today's captures by their time, older assets (an import's, dated when they were taken) by their day.
    function when(seconds) {
      const d = new Date(seconds * 1000);
      return d.toDateString() === new Date().toDateString() ? d.toLocaleTimeString() : d.toLocaleDateString();
    }

    // The gallery comes in pages, newest first: `next` is the server's cursor for the page after the last one shown.
    // A refresh reloads from the top as many cards as are shown, so a gallery scrolled down keeps its cards;
    // `generation` drops a page that arrives after a refresh began. (`?pageSize=n` sets the page size.)
    const pageSize = Math.min(500, Math.max(1, parseInt(new URLSearchParams(location.search).get('pageSize')) || 60));
    let next = null, generation = 0, loadingMore = false;

    async function refreshGallery(showLatest) {
      const mine = ++generation;
      const shown = document.querySelectorAll('#gallery .card').length;
      const page = await api('/api/captures?limit=' + Math.min(500, Math.max(pageSize, shown)));
      if (mine !== generation) return;
      $('gallery').innerHTML = '';
      addCards(page);
      const captures = page.captures;
      if (showLatest && captures.length && !state.viewfinder.available) { const img = $('last'); img.src = '/api/assets/' + mainAsset(captures[0]) + '/photo.jpg'; img.hidden = false; }
    }

    async function moreGallery() {
      if (!next || loadingMore) return;
      const mine = generation;
      loadingMore = true;
      try {
        const page = await api('/api/captures?limit=' + pageSize + '&after=' + encodeURIComponent(next));
        if (mine === generation) addCards(page);
      } catch (e) { toast(e.message); } finally { loadingMore = false; }
      // Still in view (a tall window): the observer sees no change, so the next page is asked for here.
      if (next && $('more').getBoundingClientRect().top < innerHeight) setTimeout(moreGallery, 0);
    }

    function addCards(page) {
      const total = page.total;
      $('count').textContent = total ? total + ' item' + (total > 1 ? 's' : '') : '';
      const grid = $('gallery');
      for (const c of page.captures) {
        const id = mainAsset(c); if (!id || grid.querySelector('[data-capture="' + CSS.escape(c.id) + '"]')) continue;
        const card = document.createElement('button');
        card.className = 'card'; card.dataset.capture = c.id;
        // A video's thumbnail is its first frame, marked ▶; one the server cannot decode shows the mark alone.
        card.innerHTML = '<img loading="lazy" alt=""><span></span>';
        const img = card.querySelector('img');
        if (c.mode === 'video') {
          card.classList.add('video');
          img.onerror = () => { const poster = document.createElement('div'); poster.className = 'poster'; poster.textContent = '▶'; img.replaceWith(poster); };
        }
        img.src = '/api/assets/' + id + '/thumbnail.jpg';
        const label = card.querySelector('span');
        label.textContent = when(c.date);
        const b = document.createElement('b'); b.className = 'badge'; b.textContent = c.mode; label.appendChild(b);
        card.onclick = () => openCapture(c);
        grid.appendChild(card);
      }
      next = page.next || null;
      $('more').hidden = !next;
    }

    function figure(src, caption) { return '<figure><img src="' + src + '" alt="' + caption + '"><figcaption>' + caption + '</figcaption></figure>'; }

    async function openCapture(c) {
      const id = mainAsset(c);
      const info = await api('/api/assets/' + id + '/info');
      let html = '<h2>' + esc(c.mode) + ' · ' + new Date(c.date * 1000).toLocaleString() + (info.asset.width ? ' · ' + info.asset.width + '×' + info.asset.height : '') + '</h2>';
      if (info.asset.video) {
        html += '<div class="single"><video controls playsinline preload="metadata" poster="/api/assets/' + id + '/photo.jpg" src="/api/assets/' + id + '/video.mov"></video></div>';
      } else if (c.mode === 'bracket' && c.assets.fused && c.assets['frame-2']) {
        html += '<div class="compare" id="compare"><img src="/api/assets/' + c.assets['frame-2'] + '/photo.jpg" alt="middle exposure">'
             + '<img class="after" id="after" src="/api/assets/' + c.assets.fused + '/photo.jpg" alt="fused"></div>'
             + '<input type="range" id="split" min="0" max="100" value="50" aria-label="before and after"><p class="muted">Left: the 0 EV frame · right: the fused result</p>';
        if (c.assets.toneMapped) html += '<div class="pair">' + figure('/api/assets/' + c.assets.toneMapped + '/photo.jpg', 'HDR merge, tone-mapped')
             + figure('/api/assets/' + c.assets['frame-1'] + '/photo.jpg', '−2 EV frame') + '</div>';
      } else if (info.asset.depth) {
        html += '<div class="pair">' + figure('/api/assets/' + id + '/photo.jpg', 'photo') + figure('/api/assets/' + id + '/depth.png', 'depth (near warm, far cool)') + '</div>';
        html += '<div class="pair" style="margin-top:12px">' + (info.asset.matte ? figure('/api/assets/' + id + '/matte.png', 'portrait effects matte') : '')
             + '<div id="portrait"><button class="btn" id="render-portrait">Render portrait (f/2 from depth)</button></div></div>';
      } else if (info.asset.files.some(f => f.type === 'pairedVideo')) {
        html += '<div class="single live" id="live"><img src="/api/assets/' + id + '/photo.jpg" alt="Live Photo still">'
             + '<video id="live-video" muted loop playsinline preload="auto" src="/api/assets/' + id + '/live.mov"></video>'
             + '<b class="live-badge">LIVE</b></div><p class="muted">Hover (or touch) the photo to play its movie.</p>';
      } else {
        html += '<div class="single">' + figure('/api/assets/' + id + '/photo.jpg', 'photo') + '</div>';
      }
      if (info.asset.files.some(f => f.type === 'alternatePhoto')) {
        html += '<p><button class="btn" id="develop">Develop the RAW</button></p><div id="developed"></div>';
      }
      // (File names come from whoever made the asset: escaped, never markup.)
      html += '<p class="files">' + info.asset.files.map(f => '<a href="/api/assets/' + id + '/files/' + f.index + '" download title="' + esc(f.original) + '">' + esc(f.name) + '</a>').join('') + '</p>';
      html += '<table>' + info.facts.slice(0, 60).map(f => '<tr><td>' + esc(f.section + ' · ' + f.name) + '</td><td>' + esc(f.value) + '</td></tr>').join('') + '</table>';
      $('detail-body').innerHTML = html;
      showDetail();
      const live = $('live'), video = $('live-video');
      if (live && video) {
        const play = () => { video.style.opacity = 1; video.play().catch(() => {}); };
        const stop = () => { video.pause(); video.currentTime = 0; video.style.opacity = 0; };
        live.onmouseenter = play; live.onmouseleave = stop; live.ontouchstart = play; live.ontouchend = stop;
      }
      const split = $('split');
      if (split) split.oninput = () => $('after').style.clipPath = 'inset(0 0 0 ' + split.value + '%)';
      const portrait = $('render-portrait');
      if (portrait) portrait.onclick = () => { $('portrait').innerHTML = figure('/api/assets/' + id + '/portrait.jpg', 'portrait: synthetic depth of field from the depth map'); };
      const develop = $('develop');
      if (develop) develop.onclick = () => { $('developed').innerHTML = figure('/api/assets/' + id + '/developed.jpg', 'RAW developed by OpenCapture'); };
    }

    function esc(s) { return String(s).replace(/[&<>"]/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c])); }

    init().catch((e) => toast(e.message));
    """
}
