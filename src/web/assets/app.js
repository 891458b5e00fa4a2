// The page of `damiera serve`: draws what the engine sends over the WebSocket and sends back
// the name of one of the moves it was given. It holds no rules knowledge: legal moves, their
// paths and captured squares, the side to move and the outcome all come from the server
// (docs/serve-protocol.md).
'use strict';

(() => {
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const SQ = 100;          // size of one square in SVG user units
  const MARGIN = 36;       // room for the file letters and rank numbers (algebraic notation)
  const DRAG_START = 6;    // pixels the pointer must travel before a press becomes a drag
  const PV_ARROWS = 4;     // the best move and the next three moves of the PV
  const GRAPH_HEIGHT = 220;

  const $ = (id) => document.getElementById(id);

  // Everything the page knows. `position` and `analysis` are the last messages of those types.
  const state = {
    ws: null,
    reconnectDelay: 1000,
    reconnectTimer: null,
    helloTimer: null,
    lost: null,            // the position shown when the connection was lost
    deferred: null,        // an action waiting for the end of the engine's search (a `go`)
    helloPositions: 0,     // positions received since the last `hello`
    position: null,
    analysis: null,
    graph: null,
    flipped: false,
    // The piece being moved: `path` = the squares clicked so far (the piece's square first);
    // `only` = the candidate moves when the player must pick among captures that share their
    // first and last squares (`ask` is that last square), else null.
    selection: null,
    press: null,           // the pointer press in progress (click or drag)
    search: null,          // null, 'go' or 'analyse': the search the server is running for us
    analysing: false,      // the Analyse toggle
    pending: 0,            // new/move/takeback requests still waiting for their position or error
    info: null,            // the last `info` of the current search
    pdnRunning: false,
    plyView: null,         // index into analysis.plies while the board shows an analysed ply
    geometry: null,        // the board's geometry as last drawn
  };

  // Exposed for tests and for the curious.
  const exposed = { position: null, analysis: null, graph: null, ready: false, busy: false };
  window.damiera = exposed;

  // ---------------------------------------------------------------- connection

  function connect() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    let ws;
    try {
      ws = new WebSocket(`${proto}//${location.host}/ws`);
    } catch (e) {
      scheduleReconnect();
      return;
    }
    state.ws = ws;
    setConnection('connecting', 'connecting…');
    ws.onopen = () => {
      state.reconnectDelay = 1000;
      setConnection('connected', 'connected');
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch (e) {
        showError('the server sent a message that is not JSON');
        return;
      }
      handleMessage(msg);
    };
    ws.onclose = () => {
      if (state.ws !== ws) return;
      state.ws = null;
      // Whatever the server was doing for us died with the connection.
      exposed.ready = false;
      exposed.busy = false;
      state.search = null;
      state.pending = 0;
      state.deferred = null;
      state.pdnRunning = false;
      state.selection = null;
      if (state.position) state.lost = state.position;
      if (state.analysing) setAnalyseButton(false);
      clearTimeout(state.helloTimer);
      scheduleReconnect();
      renderAll();
      renderPdnControls();
    };
    ws.onerror = () => { /* `close` follows and reconnects */ };
  }

  function scheduleReconnect() {
    const delay = state.reconnectDelay;
    state.reconnectDelay = Math.min(delay * 2, 8000);
    setConnection('disconnected', `disconnected — reconnecting in ${Math.round(delay / 1000)} s…`);
    clearTimeout(state.reconnectTimer);
    state.reconnectTimer = setTimeout(connect, delay);
  }

  function setConnection(cls, text) {
    const el = $('connection');
    el.textContent = text;
    el.className = `connection ${cls}`;
    document.body.classList.toggle('offline', cls !== 'connected');
  }

  function connected() {
    return state.ws !== null && state.ws.readyState === WebSocket.OPEN;
  }

  function send(msg) {
    if (!connected()) {
      showError('not connected to the engine');
      return false;
    }
    state.ws.send(JSON.stringify(msg));
    return true;
  }

  // ---------------------------------------------------------------- messages

  function handleMessage(msg) {
    switch (msg.type) {
      case 'hello': return onHello(msg);
      case 'position': return onPosition(msg);
      case 'info': return onInfo(msg);
      case 'bestmove': return onBestMove(msg);
      case 'progress': return onProgress(msg);
      case 'analysis': return onAnalysis(msg);
      case 'error': return onError(msg);
      default: return undefined;  // unknown types are ignored, for forward compatibility
    }
  }

  function onHello(msg) {
    fillVariants(msg.variants || []);
    fillLevels(msg.levels || []);
    exposed.ready = true;
    renderButtons();
    renderPdnControls();
    state.helloPositions = 0;
    // The protocol does not say whether a position follows `hello` (damiera's server sends its
    // start position). If none comes soon, ask for a game: after a reconnection the game the
    // page showed, else the start position of the selected variant.
    clearTimeout(state.helloTimer);
    state.helloTimer = setTimeout(() => {
      if (state.helloPositions > 0 || !connected()) return;
      if (state.lost) {
        restoreLostGame();
      } else {
        requestNew($('variant').value || null, null, $('damone-win').value);
      }
    }, 300);
  }

  // After a reconnection the server's session is new: the page asks it for the position it
  // showed before (from its FEN, so the earlier moves are gone).
  function restoreLostGame() {
    const lost = state.lost;
    state.lost = null;
    if (!lost || lost.outcome) return false;
    requestNew(lost.variant, lost.fen, lost.damone_win);
    setHint('Reconnected: the game goes on from the position shown (its earlier moves are gone).');
    return true;
  }

  // The strength levels, strongest first, each with its approximate Elo above level 1 (the
  // server's measured ladder); the choice made before a reconnection is kept.
  function fillLevels(levels) {
    const select = $('engine-level');
    const keep = select.value;
    const top = levels.length ? levels[levels.length - 1].level : 20;
    const shown = levels.length ? levels.slice().reverse() : [{ level: 20, elo: null }];
    select.replaceChildren(...shown.map((l) => {
      const opt = document.createElement('option');
      opt.value = String(l.level);
      const name = l.level === top ? `${l.level} (full strength)`
        : l.level === 0 ? '0 (random moves)' : String(l.level);
      opt.textContent = typeof l.elo === 'number' ? `${name}, ≈ ${l.elo} Elo` : name;
      return opt;
    }));
    if (keep && shown.some((l) => String(l.level) === keep)) select.value = keep;
  }

  function fillVariants(variants) {
    const select = $('variant');
    const keep = select.value || (state.position && state.position.variant);
    select.replaceChildren(...variants.map((v) => {
      const opt = document.createElement('option');
      opt.value = v.name;
      opt.textContent = v.label || v.name;
      return opt;
    }));
    if (keep && variants.some((v) => v.name === keep)) select.value = keep;
    renderDamoneWin();
  }

  function onPosition(msg) {
    state.helloPositions += 1;
    const previous = state.position;
    state.position = msg;
    exposed.position = msg;
    // A position ends a `go` (the engine's move) or answers one of our requests.
    const endsGo = state.search === 'go';
    if (endsGo) {
      state.search = null;
    } else if (state.pending > 0) {
      state.pending -= 1;
    }
    if (state.search === 'analyse') {
      // An analysis of an earlier position is still running (requests crossed): restart it.
      send({ type: 'stop' });
      state.search = null;
    }
    exposed.busy = state.search === 'go';
    state.selection = null;
    state.info = null;
    if (!previous || previous.variant !== msg.variant) $('variant').value = msg.variant;
    if (msg.damone_win) $('damone-win').value = msg.damone_win;
    renderDamoneWin();
    if (state.lost && state.helloPositions === 1
        && (msg.fen !== state.lost.fen || msg.variant !== state.lost.variant)) {
      restoreLostGame();
    }
    state.lost = null;
    renderAll();
    if (endsGo && runDeferred()) return;
    if (state.pending === 0 && !startGoIfEngineToMove()) startAnalyseIfOn();
  }

  function onInfo(msg) {
    state.info = msg;
    addInfoLine(msg);
    renderBoard();
  }

  function onBestMove(msg) {
    const line = document.createElement('div');
    line.className = 'info-line bestmove';
    line.textContent = !msg.move ? 'no legal move'
      : msg.book ? `book move ${msg.move}` : `best move ${msg.move}`;
    $('info').prepend(line);
    if (state.search === 'go' && !msg.move) {
      // No position follows a `go` without a move.
      state.search = null;
      exposed.busy = false;
      renderAll();
      runDeferred();
    } else if (state.search === 'analyse') {
      state.search = null;
    }
  }

  function onProgress(msg) {
    state.pdnRunning = true;
    const bar = $('pdn-progress');
    bar.max = Math.max(1, msg.total || 0);
    bar.value = Math.min(msg.done || 0, bar.max);
    bar.textContent = `${msg.done}/${msg.total}`;
    bar.title = `${msg.done} of ${msg.total} positions analysed`;
    renderPdnControls();
  }

  function onAnalysis(msg) {
    state.pdnRunning = false;
    state.analysis = msg;
    exposed.analysis = msg;
    const bar = $('pdn-progress');
    bar.max = 1;
    bar.value = 1;
    if (state.plyView !== null) backToGame();
    renderAnalysis();
    renderPdnControls();
    renderAll();
  }

  function onError(msg) {
    showError(msg.message || 'error');
    // Undo what the request the error answers (its `request`, the message's type) left waiting.
    switch (msg.request) {
      case 'go':
        state.search = null;
        exposed.busy = false;
        state.selection = null;
        renderAll();
        runDeferred();
        return;
      case 'analyse':
        state.search = null;
        break;
      case 'analyse_pdn':
        state.pdnRunning = false;
        $('pdn-progress').value = 0;
        renderPdnControls();
        break;
      case 'new': case 'move': case 'takeback':
        state.pending = Math.max(0, state.pending - 1);
        break;
      default:
        break;
    }
    state.selection = null;
    renderAll();
  }

  // ---------------------------------------------------------------- errors and hints

  function showError(text) {
    $('error').textContent = text;
  }

  // Called at the start of every action of the player: an error stays until the next one.
  function clearError() {
    $('error').textContent = '';
  }

  function setHint(text) {
    $('hint').textContent = text || '';
  }

  // ---------------------------------------------------------------- game requests

  // Runs `action` now, or, while the engine is searching its move, stops the search and runs
  // `action` once the engine's move has arrived. (Sent at once, a new game, take-back or game
  // analysis would race with the engine's move: the server may or may not play it first.)
  function whenEngineIdle(action) {
    if (state.search !== 'go') {
      action();
      return;
    }
    if (!state.deferred) send({ type: 'stop' });
    state.deferred = action;
    setHint('Stopping the engine…');
  }

  // Runs the action waiting for the end of a `go`, if any. Returns true if there was one.
  function runDeferred() {
    const action = state.deferred;
    state.deferred = null;
    if (!action) return false;
    setHint('');
    action();
    return true;
  }

  // `damoneWin`: Italian Damone's end of game (`all` or `damones`); the server ignores it for
  // the other variants.
  function requestNew(variant, fen, damoneWin) {
    whenEngineIdle(() => {
      stopAnalyse();
      clearInfo();
      const msg = { type: 'new', variant, fen: fen || null, damone_win: damoneWin || 'all' };
      if (send(msg)) state.pending += 1;
    });
  }

  // The Damone end-of-game choice is shown for Italian Damone only.
  function renderDamoneWin() {
    $('damone-win-row').hidden = $('variant').value !== 'damone';
  }

  function playMove(move) {
    state.selection = null;
    setHint('');
    stopAnalyse();
    if (send({ type: 'move', move: move.name })) state.pending += 1;
    renderBoard();
  }

  // Takes back the player's last move: against the engine, when it is the player's turn, that
  // is two plies (the engine's reply and the player's move); else one. While the engine thinks,
  // it is stopped first, and its move is taken back with the player's.
  function takeBack() {
    whenEngineIdle(() => {
      const p = state.position;
      if (!p) return;
      stopAnalyse();
      const engine = engineSide();
      let plies = engine !== 'none' && p.side !== engine ? 2 : 1;
      plies = Math.min(plies, p.history.length);
      if (plies < 1) {
        showError('nothing to take back');
        return;
      }
      if (send({ type: 'takeback', plies })) state.pending += 1;
    });
  }

  function engineSide() {
    return $('engine-side').value;
  }

  function engineToMove() {
    const p = state.position;
    return Boolean(p && !p.outcome && engineSide() === p.side);
  }

  // Sends `go` when the engine is to move. Returns true if it did.
  function startGoIfEngineToMove() {
    if (!engineToMove() || state.search === 'go' || state.pending > 0 || !connected()) return false;
    stopAnalyse();
    const limit = $('engine-limit').value;
    const depth = positiveInt($('engine-depth').value, 8);
    const movetime = positiveInt($('engine-movetime').value, 1000);
    const level = parseInt($('engine-level').value, 10);
    const msg = {
      type: 'go',
      depth: limit === 'depth' ? depth : null,
      movetime: limit === 'movetime' ? movetime : null,
      level: Number.isInteger(level) ? level : null,
    };
    if (!send(msg)) return false;
    state.search = 'go';
    exposed.busy = true;
    state.selection = null;
    clearInfo();
    renderAll();
    return true;
  }

  function startAnalyseIfOn() {
    const p = state.position;
    if (!state.analysing || state.search || !p || p.outcome || engineToMove()) return;
    if (state.pending > 0) return;
    if (!send({ type: 'analyse' })) return;
    state.search = 'analyse';
    clearInfo();
  }

  // Stops a running analysis (before any move, new game, take-back or go).
  function stopAnalyse() {
    if (state.search === 'analyse') {
      send({ type: 'stop' });
      state.search = null;
    }
  }

  function setAnalyseButton(on) {
    state.analysing = on;
    const b = $('analyse');
    b.setAttribute('aria-pressed', String(on));
    b.classList.toggle('active', on);
  }

  function positiveInt(text, fallback) {
    const n = Number.parseInt(text, 10);
    return Number.isFinite(n) && n > 0 ? n : fallback;
  }

  // ---------------------------------------------------------------- board geometry

  // Where each square is drawn. Drawn with White at the bottom, square (file, rank) is at
  // column `file`, row `ranks - 1 - rank` from the top; flipped, the board turns half a turn:
  // column `files - 1 - file`, row `rank`.
  function makeGeometry(layout, flipped) {
    const algebraic = layout.notation === 'algebraic';
    const left = algebraic ? MARGIN : 0;
    const bottom = algebraic ? MARGIN : 0;
    const cells = new Map();   // name -> {col, row, x, y}
    const names = new Map();   // "col,row" -> name
    for (const s of layout.squares) {
      const col = flipped ? layout.files - 1 - s.file : s.file;
      const row = flipped ? s.rank : layout.ranks - 1 - s.rank;
      cells.set(s.name, { col, row, x: left + col * SQ, y: row * SQ });
      names.set(`${col},${row}`, s.name);
    }
    return {
      layout, flipped, algebraic, left,
      width: left + layout.files * SQ,
      height: layout.ranks * SQ + bottom,
      cells, names,
      center(name) {
        const c = cells.get(name);
        return c ? { x: c.x + SQ / 2, y: c.y + SQ / 2 } : null;
      },
      // The playable square under a point in SVG units, or null.
      nameAt(x, y) {
        const col = Math.floor((x - left) / SQ);
        const row = Math.floor(y / SQ);
        return names.get(`${col},${row}`) || null;
      },
    };
  }

  function svgEl(tag, attrs, parent) {
    const el = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== null && v !== undefined) el.setAttribute(k, String(v));
    }
    if (parent) parent.appendChild(el);
    return el;
  }

  // ---------------------------------------------------------------- what the board shows

  // The board either shows the game (interactive) or one ply of a game's analysis.
  function boardModel() {
    const a = state.analysis;
    if (state.plyView !== null && a && a.plies[state.plyView]) {
      const ply = a.plies[state.plyView];
      const arrows = [];
      const same = ply.best_path && samePath(ply.best_path, ply.path);
      if (!same) arrows.push({ squares: ply.path, cls: 'played' });
      if (ply.best_path) arrows.push({ squares: ply.best_path, cls: same ? 'best good played' : 'best good' });
      return { layout: a, pieces: ply.pieces_before, last: null, arrows, interactive: false };
    }
    const p = state.position;
    if (!p) return null;
    return { layout: p, pieces: p.pieces, last: p.last, arrows: pvArrows(), interactive: true };
  }

  // The PV of the running analysis as arrows: the best move bold, the next moves fainter.
  function pvArrows() {
    const info = state.info;
    const p = state.position;
    if (!state.analysing || !info || !p || !Array.isArray(info.pv) || info.pv.length === 0) return [];
    // Only a PV of this position (an `info` of an earlier search may still arrive).
    if (!p.moves.some((m) => m.name === info.pv[0])) return [];
    return info.pv.slice(0, PV_ARROWS).map((name, i) => ({
      squares: moveNameSquares(name),
      cls: i === 0 ? 'best' : `pv pv${i}`,
    }));
  }

  // A move name lists the piece's square and every landing square: `11-15`, `11x18x25`, `c3:e5`.
  function moveNameSquares(name) {
    return String(name).split(/[-x:]/).filter((s) => s.length > 0);
  }

  function interactive() {
    const p = state.position;
    return Boolean(p && connected() && state.plyView === null && !p.outcome && !exposed.busy
      && state.pending === 0 && !engineToMove());
  }

  // ---------------------------------------------------------------- move choice

  function samePath(a, b) {
    return a.length === b.length && a.every((s, i) => s === b[i]);
  }

  function startsWith(path, prefix) {
    return path.length > prefix.length && prefix.every((s, i) => path[i] === s);
  }

  function movesFrom(square) {
    const p = state.position;
    return p ? p.moves.filter((m) => m.path[0] === square) : [];
  }

  // The moves still possible after the squares clicked so far.
  function candidates(sel) {
    const pool = sel.only || state.position.moves;
    return pool.filter((m) => startsWith(m.path, sel.path));
  }

  // What clicking (or dropping on) `square` does with the selection `sel`:
  // {play: move}, {extend: selection} or null (no legal continuation).
  //
  // Multi-captures: the player clicks successive landing squares. A move is played when the
  // squares clicked so far are its whole path, or when the clicked square is the final square
  // of exactly one candidate (the intermediate squares may be skipped). When several captures
  // from the same square end on the clicked square by different paths, the page keeps those
  // (`only`) and asks for the path: their next landing squares are highlighted, and as soon as
  // the squares clicked through leave one of them, it is played.
  function chooseLanding(sel, square) {
    const cands = candidates(sel);
    const next = [...sel.path, square];
    const exact = cands.filter((m) => samePath(m.path, next));
    if (exact.length > 0) return { play: exact[0] };
    const ending = cands.filter((m) => m.path[m.path.length - 1] === square);
    if (ending.length === 1) return { play: ending[0] };
    if (ending.length > 1) {
      return { extend: { path: sel.path, only: ending, ask: square } };
    }
    const through = cands.filter((m) => m.path[sel.path.length] === square);
    if (through.length === 0) return null;
    if (sel.only && through.length === 1) return { play: through[0] };
    return { extend: { path: next, only: sel.only ? through : null, ask: sel.ask } };
  }

  function select(square) {
    state.selection = { path: [square], only: null, ask: null };
    setHint('');
  }

  function clearSelection() {
    state.selection = null;
    setHint('');
  }

  // A click on a square of the board (a press that did not become a drag).
  function clickSquare(square) {
    const sel = state.selection;
    if (sel && square) {
      const r = chooseLanding(sel, square);
      if (r && r.play) return playMove(r.play);
      if (r && r.extend) {
        state.selection = r.extend;
        askPathHint();
        return renderBoard();
      }
    }
    if (square && movesFrom(square).length > 0 && !(sel && sel.path.length === 1 && sel.path[0] === square)) {
      select(square);
    } else {
      // A piece taken to a square none of its moves reaches: refused, and said so.
      if (sel && square && square !== sel.path[sel.path.length - 1]) {
        showError(`${[...sel.path, square].join('-')}: not a legal move`);
      }
      clearSelection();
    }
    return renderBoard();
  }

  function askPathHint() {
    const sel = state.selection;
    if (sel && sel.only) {
      setHint(`${sel.only.length} captures from ${sel.path[0]} end on ${sel.ask}: click the squares of the path you want.`);
    } else {
      setHint('');
    }
  }

  function noMarks() {
    return { targets: new Set(), finals: new Set(), captured: new Set(), via: new Set() };
  }

  // The squares the selection can go to next, the final squares further on, and the squares
  // of the pieces its candidate moves capture.
  function selectionMarks() {
    const marks = noMarks();
    const sel = state.selection;
    if (!sel || !state.position) return marks;
    const k = sel.path.length;
    for (const m of candidates(sel)) {
      marks.targets.add(m.path[k]);
      marks.finals.add(m.path[m.path.length - 1]);
      for (const c of m.captured) marks.captured.add(c);
    }
    for (const t of marks.targets) marks.finals.delete(t);
    sel.path.slice(1).forEach((s) => marks.via.add(s));
    return marks;
  }

  // ---------------------------------------------------------------- drawing the board

  // The board's elements are kept from one drawing to the next: the squares and coordinates
  // are rebuilt only when the layout or the orientation changes, a piece only when its square's
  // content changes. Selection and highlights are classes on those elements, so an element a
  // player (or a test) is pressing stays the same element.
  function renderBoard() {
    const svg = $('board');
    const model = boardModel();
    if (!model) return;
    const key = layoutKey(model.layout, state.flipped);
    if (!state.geometry || state.geometry.key !== key) buildBoard(svg, model.layout, key);
    const geo = state.geometry;
    svg.classList.toggle('locked', !model.interactive || !interactive());
    svg.classList.toggle('ply-view', state.plyView !== null);

    const sel = model.interactive ? state.selection : null;
    const marks = sel ? selectionMarks() : noMarks();
    const lastSquares = new Set(model.last ? model.last.path : []);
    updateSquares(geo, { marks, lastSquares, sel });
    updatePieces(geo, model, marks);

    geo.layers.marks.replaceChildren();
    if (sel) drawTargetMarks(geo.layers.marks, geo, marks);
    geo.layers.arrows.replaceChildren();
    // Drawn faintest first, so the best move's arrow is on top.
    [...model.arrows].reverse().forEach((a) => drawArrow(geo.layers.arrows, geo, a.squares, a.cls));
  }

  function layoutKey(layout, flipped) {
    const squares = layout.squares.map((s) => `${s.name}@${s.file},${s.rank}`).join(';');
    return `${layout.files}x${layout.ranks}:${layout.notation}:${flipped}:${squares}`;
  }

  function buildBoard(svg, layout, key) {
    const geo = makeGeometry(layout, state.flipped);
    geo.key = key;
    svg.setAttribute('viewBox', `0 0 ${geo.width} ${geo.height}`);
    svg.replaceChildren();
    drawDefs(svg);
    geo.layers = {
      squares: svgEl('g', { class: 'squares' }, svg),
      coords: svgEl('g', { class: 'coords' }, svg),
      marks: svgEl('g', { class: 'marks' }, svg),
      pieces: svgEl('g', { class: 'pieces' }, svg),
      arrows: svgEl('g', { class: 'arrows' }, svg),
    };
    geo.rects = new Map();   // name -> rect.square
    geo.pieceEls = new Map(); // name -> g.piece
    drawSquares(geo);
    drawCoords(geo.layers.coords, geo);
    state.geometry = geo;
  }

  function updateSquares(geo, { marks, lastSquares, sel }) {
    for (const [name, rect] of geo.rects) {
      const cls = ['square'];
      if (lastSquares.has(name)) cls.push('last');
      if (sel && sel.path[0] === name) cls.push('selected');
      if (marks.via.has(name)) cls.push('via');
      if (marks.targets.has(name)) cls.push('target');
      if (marks.finals.has(name)) cls.push('final');
      if (sel && sel.ask === name) cls.push('ask');
      const text = cls.join(' ');
      if (rect.getAttribute('class') !== text) rect.setAttribute('class', text);
    }
  }

  function updatePieces(geo, model, marks) {
    model.layout.squares.forEach((s, i) => {
      const code = model.pieces[i] || '';
      let g = geo.pieceEls.get(s.name);
      if (g && g.dataset.code !== code) {
        g.remove();
        geo.pieceEls.delete(s.name);
        g = null;
      }
      if (!g && code) {
        g = drawPiece(geo.layers.pieces, geo, s.name, code);
        geo.pieceEls.set(s.name, g);
      }
      if (g) {
        // Back on its square after a drag.
        const c = geo.center(s.name);
        g.setAttribute('transform', `translate(${c.x} ${c.y})`);
        g.classList.remove('dragging');
        g.classList.toggle('capturable', marks.captured.has(s.name));
      }
    });
  }

  function drawDefs(svg) {
    const defs = svgEl('defs', {}, svg);
    for (const kind of ['blue', 'red', 'green']) {
      // Arrow heads scale with the line (markerUnits strokeWidth); the line ends at the head's base.
      const marker = svgEl('marker', {
        id: `head-${kind}`, viewBox: '0 0 10 10', refX: 1, refY: 5,
        markerWidth: 2.6, markerHeight: 2.6, orient: 'auto', markerUnits: 'strokeWidth',
      }, defs);
      svgEl('path', { d: 'M0,0 L10,5 L0,10 z', class: `head head-${kind}` }, marker);
    }
  }

  function drawSquares(geo) {
    const { layout } = geo;
    const layer = geo.layers.squares;
    for (let row = 0; row < layout.ranks; row += 1) {
      for (let col = 0; col < layout.files; col += 1) {
        const name = geo.names.get(`${col},${row}`);
        const x = geo.left + col * SQ;
        const y = row * SQ;
        if (!name) {
          svgEl('rect', { class: 'light', x, y, width: SQ, height: SQ }, layer);
        } else {
          const rect = svgEl('rect', { class: 'square', 'data-square': name, x, y, width: SQ, height: SQ }, layer);
          geo.rects.set(name, rect);
        }
      }
    }
  }

  function drawCoords(layer, geo) {
    const { layout } = geo;
    if (!geo.algebraic) {
      // A number in the top-left corner of each playable square.
      for (const s of layout.squares) {
        const c = geo.cells.get(s.name);
        const t = svgEl('text', { class: 'coord number', x: c.x + 4, y: c.y + 19 }, layer);
        t.textContent = s.name;
      }
      return;
    }
    // Files a.. under the board, ranks 1.. beside it, in the board's orientation.
    for (let col = 0; col < layout.files; col += 1) {
      const file = geo.flipped ? layout.files - 1 - col : col;
      const t = svgEl('text', {
        class: 'coord file', x: geo.left + col * SQ + SQ / 2, y: layout.ranks * SQ + MARGIN * 0.72,
        'text-anchor': 'middle',
      }, layer);
      t.textContent = String.fromCharCode(97 + file);
    }
    for (let row = 0; row < layout.ranks; row += 1) {
      const rank = geo.flipped ? row : layout.ranks - 1 - row;
      const t = svgEl('text', {
        class: 'coord rank', x: MARGIN / 2, y: row * SQ + SQ / 2 + 8, 'text-anchor': 'middle',
      }, layer);
      t.textContent = String(rank + 1);
    }
  }

  function drawTargetMarks(layer, geo, marks) {
    for (const name of marks.targets) {
      const c = geo.center(name);
      if (c) svgEl('circle', { class: 'target-dot', cx: c.x, cy: c.y, r: 15 }, layer);
    }
    for (const name of marks.finals) {
      const c = geo.center(name);
      if (c) svgEl('circle', { class: 'final-ring', cx: c.x, cy: c.y, r: 20 }, layer);
    }
  }

  const KINDS = { m: 'man', k: 'king', d: 'damone' };

  function drawPiece(layer, geo, name, code) {
    const c = geo.center(name);
    const color = code[0] === 'w' ? 'white' : 'black';
    const kind = KINDS[code[1]] || 'man';
    const g = svgEl('g', {
      class: 'piece',
      'data-square': name, 'data-color': color, 'data-kind': kind, 'data-code': code,
      transform: `translate(${c.x} ${c.y})`,
    }, layer);
    const title = svgEl('title', {}, g);
    title.textContent = `${color} ${kind} on ${name}`;
    // Radius 35 of a square of 100 leaves the square's number in its corner readable.
    svgEl('circle', { class: 'shadow', cx: 2, cy: 3, r: 35 }, g);
    svgEl('circle', { class: 'body', r: 35 }, g);
    svgEl('circle', { class: 'rim', r: 26 }, g);
    if (kind === 'king') {
      // A crown.
      svgEl('path', { class: 'crown', d: 'M-17,9 L-19,-9 L-9,-1 L0,-15 L9,-1 L19,-9 L17,9 Z' }, g);
    } else if (kind === 'damone') {
      // Damone: a double mark (two bars across a ring), distinct from the king's crown.
      svgEl('circle', { class: 'damone-ring', r: 19 }, g);
      svgEl('rect', { class: 'damone-bar', x: -13, y: -8, width: 26, height: 5, rx: 2 }, g);
      svgEl('rect', { class: 'damone-bar', x: -13, y: 3, width: 26, height: 5, rx: 2 }, g);
    }
    return g;
  }

  // An arrow from the first square through each landing square.
  function drawArrow(layer, geo, squares, cls) {
    const pts = squares.map((s) => geo.center(s));
    if (pts.length < 2 || pts.some((p) => !p)) return;
    const g = svgEl('g', { class: `arrow ${cls}` }, layer);
    const width = cls.split(' ').includes('best') || cls.includes('played') ? 13 : 8;
    // End the line at the head's base, so that the head's tip reaches the last square's centre.
    const head = 2.6 * width * 0.9;
    const a = pts[pts.length - 2];
    const b = pts[pts.length - 1];
    const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    const end = { x: b.x - ((b.x - a.x) / len) * head, y: b.y - ((b.y - a.y) / len) * head };
    const points = [...pts.slice(0, -1), end].map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
    let color = 'blue';
    if (cls.includes('good')) color = 'green';
    else if (cls.includes('played')) color = 'red';
    svgEl('polyline', {
      points, 'stroke-width': width, 'marker-end': `url(#head-${color})`, class: `shaft shaft-${color}`,
    }, g);
  }

  // ---------------------------------------------------------------- pointer input

  function svgPoint(ev) {
    const svg = $('board');
    const pt = svg.createSVGPoint();
    pt.x = ev.clientX;
    pt.y = ev.clientY;
    const m = svg.getScreenCTM();
    return m ? pt.matrixTransform(m.inverse()) : null;
  }

  function squareAt(ev) {
    const p = svgPoint(ev);
    return p && state.geometry ? state.geometry.nameAt(p.x, p.y) : null;
  }

  function landingSquares(sel) {
    const m = selectionMarks();
    return sel ? new Set([...m.targets, ...m.finals]) : new Set();
  }

  function onPointerDown(ev) {
    if (ev.button !== undefined && ev.button !== 0) return;
    if (!interactive()) return;
    clearError();
    const square = squareAt(ev);
    state.press = { square, x: ev.clientX, y: ev.clientY, id: ev.pointerId, drag: false, canDrag: false };
    const sel = state.selection;
    const isLanding = sel && square && landingSquares(sel).has(square);
    if (square && !isLanding && movesFrom(square).length > 0) {
      // A press on a piece with legal moves selects it at once (and may become a drag).
      const wasSelected = sel && sel.path.length === 1 && sel.path[0] === square;
      if (!wasSelected) {
        select(square);
        state.press.justSelected = true;
        renderBoard();
      }
      state.press.canDrag = true;
      try { $('board').setPointerCapture(ev.pointerId); } catch (e) { /* pointer already gone */ }
    }
    ev.preventDefault();
  }

  function onPointerMove(ev) {
    const press = state.press;
    if (!press || !press.canDrag || ev.pointerId !== press.id) return;
    const dx = ev.clientX - press.x;
    const dy = ev.clientY - press.y;
    if (!press.drag && Math.hypot(dx, dy) < DRAG_START) return;
    press.drag = true;
    const piece = state.geometry.pieceEls.get(press.square);
    const p = svgPoint(ev);
    if (!piece || !p) return;
    if (!piece.classList.contains('dragging')) {
      piece.classList.add('dragging');
      piece.parentNode.appendChild(piece);  // on top of the other pieces
    }
    piece.setAttribute('transform', `translate(${p.x} ${p.y})`);
  }

  function onPointerUp(ev) {
    const press = state.press;
    state.press = null;
    if (!press || (press.id !== undefined && ev.pointerId !== press.id)) return;
    if (!interactive()) return;
    if (press.drag) {
      // A drop plays the move ending there (or continues a path) as a click on that square does.
      const square = squareAt(ev);
      if (square && square !== press.square) {
        clickSquare(square);
      } else {
        renderBoard();  // back to its square, still selected
      }
      return;
    }
    if (press.canDrag) {
      // A click on a piece: selected by the press; a second click on it deselects it.
      if (!press.justSelected) {
        clearSelection();
        renderBoard();
      }
      return;
    }
    clickSquare(press.square);
  }

  function onPointerCancel() {
    if (state.press && state.press.drag) renderBoard();
    state.press = null;
  }

  // ---------------------------------------------------------------- status, moves, info

  function renderAll() {
    renderBoard();
    renderStatus();
    renderMoves();
    renderMoveSelect();
    renderButtons();
    renderBook();
  }

  // The position's book moves (the position's `book`, best first): each with its score (men,
  // White's view); a click plays it when the board takes moves. `null`: no book of the variant.
  function renderBook() {
    const list = $('book');
    const note = $('book-note');
    const p = state.position;
    list.replaceChildren();
    if (!p) {
      note.textContent = '';
      return;
    }
    if (!Array.isArray(p.book)) {
      note.textContent = 'No opening book for this variant (damiera serve --book FILE).';
      return;
    }
    if (p.book.length === 0) {
      note.textContent = p.outcome ? 'The game is over.' : 'Not in the book.';
      return;
    }
    note.textContent = '';
    const usable = interactive();
    for (const b of p.book) {
      const li = document.createElement('li');
      li.className = 'book-move';
      li.dataset.move = b.name;
      const button = document.createElement('button');
      button.type = 'button';
      button.disabled = !usable;
      button.title = `book: depth ${b.depth}, count ${b.count}`;
      const name = document.createElement('span');
      name.className = 'name';
      name.textContent = b.name;
      const score = document.createElement('span');
      score.className = 'score';
      score.textContent = b.score_text;
      button.append(name, ' ', score);
      button.addEventListener('click', () => {
        const move = (state.position.moves || []).find((m) => m.name === b.name);
        if (!move || !interactive()) return;
        clearError();
        playMove(move);
      });
      li.appendChild(button);
      list.appendChild(li);
    }
  }

  function capitalise(s) {
    return s ? s[0].toUpperCase() + s.slice(1) : s;
  }

  function renderStatus() {
    const el = $('status');
    const p = state.position;
    el.classList.remove('outcome');
    if (!p) {
      el.textContent = connected() ? 'Waiting for the engine…' : 'Not connected';
      return;
    }
    $('current-fen').textContent = p.fen || '';
    if (p.outcome) {
      el.textContent = p.outcome;
      el.classList.add('outcome');
      return;
    }
    let text = `${capitalise(p.side)} to move`;
    if (exposed.busy) text += ' — the engine is thinking…';
    else if (engineToMove()) text += ' (the engine)';
    el.textContent = text;
  }

  // The moves played, numbered in pairs from the game's first move.
  function renderMoves() {
    const list = $('moves');
    const p = state.position;
    list.replaceChildren();
    if (!p) return;
    const h = p.history || [];
    for (let i = 0; i < h.length; i += 2) {
      const li = document.createElement('li');
      for (const j of [i, i + 1]) {
        if (j >= h.length) break;
        const span = document.createElement('span');
        span.className = j === h.length - 1 ? 'ply current' : 'ply';
        span.textContent = h[j];
        li.appendChild(span);
      }
      list.appendChild(li);
    }
    list.scrollTop = list.scrollHeight;
  }

  // A keyboard way to move: the legal moves in a list.
  function renderMoveSelect() {
    const select = $('move-select');
    const p = state.position;
    const moves = p && !p.outcome ? p.moves : [];
    select.replaceChildren(...moves.map((m) => {
      const opt = document.createElement('option');
      opt.value = m.name;
      opt.textContent = m.name;
      return opt;
    }));
    const usable = interactive() && moves.length > 0;
    select.disabled = !usable;
    $('move-play').disabled = !usable;
  }

  function renderButtons() {
    const on = connected();
    const p = state.position;
    $('new-game').disabled = !on;
    $('takeback').disabled = !on || !p || (p.history || []).length === 0;
    $('analyse').disabled = !on;
    $('stop').disabled = !on;
    const limit = $('engine-limit').value;
    $('engine-depth').closest('.row').classList.toggle('unused', limit !== 'depth');
    $('engine-movetime').closest('.row').classList.toggle('unused', limit !== 'movetime');
  }

  function clearInfo() {
    $('info').replaceChildren();
    state.info = null;
  }

  function formatCount(n) {
    if (n === null || n === undefined) return '';
    if (n >= 1e9) return `${(n / 1e9).toFixed(1)}G`;
    if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
    if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
    return String(n);
  }

  function addInfoLine(msg) {
    const line = document.createElement('div');
    line.className = 'info-line';
    const parts = [
      ['depth', `d${msg.depth}`],
      ['score', msg.score_text !== undefined ? msg.score_text : String(msg.score)],
      ['nodes', `${formatCount(msg.nodes)} nodes`],
      ['nps', `${formatCount(msg.nps)}/s`],
      ['pv', (msg.pv || []).join(' ')],
    ];
    for (const [cls, text] of parts) {
      const span = document.createElement('span');
      span.className = cls;
      span.textContent = text;
      line.appendChild(span);
    }
    const box = $('info');
    box.prepend(line);
    while (box.children.length > 30) box.lastChild.remove();
  }

  // ---------------------------------------------------------------- game analysis

  function renderPdnControls() {
    $('analyse-pdn').disabled = state.pdnRunning || !connected();
    $('pdn-stop').disabled = !state.pdnRunning;
    $('export-pdn').disabled = !(state.analysis && state.analysis.pdn);
  }

  function analysePdn() {
    clearError();
    const text = $('pdn-text').value;
    if (!text.trim()) {
      showError('paste a PDN game or choose a PDN file first');
      return;
    }
    const game = positiveInt($('pdn-game').value, 0);
    const depth = positiveInt($('pdn-depth').value, 0);
    if (!game || !depth) {
      showError('the game number and the depth must be whole numbers of at least 1');
      return;
    }
    whenEngineIdle(() => {
      stopAnalyse();
      if (!send({ type: 'analyse_pdn', pdn: text, game, depth, movetime: null })) return;
      state.pdnRunning = true;
      $('pdn-progress').removeAttribute('value');  // indeterminate until the first `progress`
      renderPdnControls();
    });
  }

  function plyText(ply) {
    let text = `${ply.label} ${ply.move}${ply.mark} (${ply.score_text}${ply.book ? ', book' : ''})`;
    if (ply.best) text += `; best ${ply.best} (${ply.best_score_text})`;
    if (ply.line && ply.line.length > 0) {
      text += ply.mark ? `; refuted by ${ply.line.join(' ')}` : `; then ${ply.line.join(' ')}`;
    }
    return text;
  }

  function renderAnalysis() {
    const a = state.analysis;
    renderGraph(a);
    const marks = $('marks');
    marks.replaceChildren();
    a.plies.forEach((ply, i) => {
      if (ply.mark !== '?' && ply.mark !== '??') return;
      const li = document.createElement('li');
      li.className = 'mark';
      li.dataset.ply = String(i + 1);
      li.dataset.mark = ply.mark;
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = `${ply.label} ${ply.move}${ply.mark}`;
      b.title = `${ply.mark === '??' ? 'blunder' : 'mistake'}: loses ${Number(ply.loss).toFixed(2)} men`;
      li.appendChild(b);
      marks.appendChild(li);
    });
    $('report').textContent = a.report || '';
  }

  function renderGraph(a) {
    const box = $('graph');
    if (state.graph) {
      state.graph.destroy();
      state.graph = null;
      exposed.graph = null;
    }
    box.replaceChildren();
    if (typeof window.uPlot !== 'function' || a.plies.length === 0) return;
    const n = a.plies.length;
    // One point per ply: x = ply number, y = the score after it (men, White's view).
    const xs = a.plies.map((_, i) => i + 1);
    const ys = a.plies.map((p) => p.score);
    // The axis shows at most ±5 men (a won game's ±20 would flatten the rest); the scores are
    // kept as they are (the line leaves the plot), the markers of the marked moves are held at
    // its edge so that none is lost.
    const maxAbs = ys.reduce((m, y) => Math.max(m, Math.abs(y || 0)), 0);
    const lim = Math.min(5, Math.max(1, Math.ceil(maxAbs * 1.2)));
    const edge = (y) => Math.max(-lim * 0.97, Math.min(lim * 0.97, y));
    const mistakes = a.plies.map((p) => (p.mark === '?' ? edge(p.score) : null));
    const blunders = a.plies.map((p) => (p.mark === '??' ? edge(p.score) : null));
    const width = Math.max(240, box.clientWidth || 600);
    const dense = n > width / 8;  // smaller points when they would crowd each other
    const opts = {
      width,
      height: GRAPH_HEIGHT,
      legend: { show: false },
      cursor: { drag: { x: false, y: false }, points: { size: 9 } },
      scales: { x: { time: false, range: [0.5, n + 0.5] }, y: { range: [-lim, lim] } },
      axes: [
        { label: 'ply', size: 36, labelSize: 18, stroke: '#444' },
        { label: 'men (White +)', size: 44, labelSize: 18, stroke: '#444' },
      ],
      series: [
        {},
        {
          label: 'score', stroke: '#2f5f8f', width: 2, fill: 'rgba(47,95,143,0.12)', fillTo: 0,
          points: { show: true, size: dense ? 3 : 5, fill: '#2f5f8f' },
        },
        markSeries('mistake ?', '#e08a00', dense ? 7 : 11),
        markSeries('blunder ??', '#c62828', dense ? 8 : 13),
      ],
      hooks: {
        draw: [drawGraphExtras],
        setCursor: [(u) => showGraphHover(u.cursor.idx)],
      },
    };
    const u = new window.uPlot(opts, [xs, ys, mistakes, blunders], box);
    u.over.addEventListener('click', () => {
      const i = u.cursor.idx;
      if (i !== null && i !== undefined) showPly(i);
    });
    const caption = document.createElement('p');
    caption.id = 'graph-hover';
    caption.className = 'graph-hover';
    caption.textContent = graphCaption(a);
    box.appendChild(caption);
    state.graph = u;
    exposed.graph = u;
  }

  // Mistakes and blunders as their own series: points only, no line.
  function markSeries(label, color, size) {
    return {
      label, stroke: color, width: 0, paths: () => null,
      points: { show: true, size, fill: color, stroke: '#fff', width: 1.5 },
    };
  }

  // The zero line, and the ply shown on the board.
  function drawGraphExtras(u) {
    const ctx = u.ctx;
    ctx.save();
    const y0 = Math.round(u.valToPos(0, 'y', true));
    ctx.strokeStyle = 'rgba(0,0,0,0.45)';
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(u.bbox.left, y0);
    ctx.lineTo(u.bbox.left + u.bbox.width, y0);
    ctx.stroke();
    if (state.plyView !== null) {
      const x = Math.round(u.valToPos(state.plyView + 1, 'x', true));
      ctx.strokeStyle = 'rgba(46,125,50,0.8)';
      ctx.lineWidth = 2 * (window.devicePixelRatio || 1);
      ctx.beginPath();
      ctx.moveTo(x, u.bbox.top);
      ctx.lineTo(x, u.bbox.top + u.bbox.height);
      ctx.stroke();
    }
    ctx.restore();
  }

  function graphCaption(a) {
    const marked = a.plies.filter((p) => p.mark === '?' || p.mark === '??').length;
    let found = 'no mistakes found';
    if (marked > 0) found = `${marked} marked ${marked === 1 ? 'move' : 'moves'} (? mistake, ?? blunder; listed below)`;
    return `${a.plies.length} plies, ${found}: click a point to see the position.`;
  }

  function showGraphHover(idx) {
    const el = $('graph-hover');
    const a = state.analysis;
    if (!el || !a) return;
    if (idx === null || idx === undefined || !a.plies[idx]) {
      el.textContent = graphCaption(a);
      return;
    }
    el.textContent = `ply ${idx + 1}: ${plyText(a.plies[idx])}`;
  }

  function resizeGraph() {
    const u = state.graph;
    const box = $('graph');
    if (u && box.clientWidth > 0 && Math.abs(u.width - box.clientWidth) > 2) {
      u.setSize({ width: box.clientWidth, height: GRAPH_HEIGHT });
    }
  }

  // Shows ply `index` (0-based) of the analysed game on the board, without touching the game.
  function showPly(index) {
    const a = state.analysis;
    if (!a || index < 0 || index >= a.plies.length) return;
    clearError();
    state.plyView = index;
    state.selection = null;
    setHint('');
    $('ply-view').textContent = plyText(a.plies[index]);
    $('ply-bar').hidden = false;
    $('ply-prev').disabled = index === 0;
    $('ply-next').disabled = index === a.plies.length - 1;
    for (const li of document.querySelectorAll('#marks li.mark')) {
      li.classList.toggle('shown', Number(li.dataset.ply) === index + 1);
    }
    if (state.graph) state.graph.redraw(false);
    renderAll();
  }

  function backToGame() {
    clearError();
    state.plyView = null;
    $('ply-bar').hidden = true;
    $('ply-view').textContent = '';
    for (const li of document.querySelectorAll('#marks li.mark')) li.classList.remove('shown');
    if (state.graph) state.graph.redraw(false);
    renderAll();
  }

  function exportPdn() {
    const a = state.analysis;
    if (!a || !a.pdn) return;
    const blob = new Blob([a.pdn], { type: 'text/plain' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = 'analysis.pdn';
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }

  // ---------------------------------------------------------------- controls

  function bindControls() {
    const board = $('board');
    board.addEventListener('pointerdown', onPointerDown);
    board.addEventListener('pointermove', onPointerMove);
    board.addEventListener('pointerup', onPointerUp);
    board.addEventListener('pointercancel', onPointerCancel);

    $('new-game').addEventListener('click', () => {
      clearError();
      setHint('');
      const fen = $('fen').value.trim();
      requestNew($('variant').value, fen || null, $('damone-win').value);
    });
    $('variant').addEventListener('change', renderDamoneWin);
    $('takeback').addEventListener('click', () => { clearError(); takeBack(); });
    $('flip').addEventListener('click', () => {
      clearError();
      state.flipped = !state.flipped;
      $('flip').setAttribute('aria-pressed', String(state.flipped));
      renderBoard();
    });
    $('analyse').addEventListener('click', () => {
      clearError();
      if (state.analysing) {
        setAnalyseButton(false);
        stopAnalyse();
      } else {
        setAnalyseButton(true);
        startAnalyseIfOn();
      }
      renderBoard();
    });
    $('stop').addEventListener('click', () => {
      clearError();
      const running = state.search !== null || state.pdnRunning;
      setAnalyseButton(false);
      if (running) send({ type: 'stop' });
      if (state.search === 'analyse') state.search = null;
      if (state.pdnRunning) {
        state.pdnRunning = false;
        renderPdnControls();
      }
      renderBoard();
    });
    $('engine-side').addEventListener('change', () => {
      clearError();
      renderAll();
      if (state.pending === 0 && !startGoIfEngineToMove()) startAnalyseIfOn();
    });
    $('engine-limit').addEventListener('change', () => { clearError(); renderButtons(); });
    $('move-play').addEventListener('click', () => {
      clearError();
      const name = $('move-select').value;
      const move = state.position && state.position.moves.find((m) => m.name === name);
      if (move && interactive()) playMove(move);
    });

    $('pdn-file').addEventListener('change', async () => {
      clearError();
      const file = $('pdn-file').files[0];
      if (!file) return;
      try {
        $('pdn-text').value = await file.text();
      } catch (e) {
        showError(`cannot read ${file.name}`);
      }
    });
    $('analyse-pdn').addEventListener('click', analysePdn);
    $('pdn-stop').addEventListener('click', () => {
      clearError();
      if (state.pdnRunning) send({ type: 'stop' });
      state.pdnRunning = false;
      renderPdnControls();
    });
    $('marks').addEventListener('click', (ev) => {
      const li = ev.target.closest('li.mark');
      if (li) showPly(Number(li.dataset.ply) - 1);
    });
    $('back-to-game').addEventListener('click', backToGame);
    $('ply-prev').addEventListener('click', () => showPly(state.plyView - 1));
    $('ply-next').addEventListener('click', () => showPly(state.plyView + 1));
    document.addEventListener('keydown', (ev) => {
      if (state.plyView === null || ev.target.closest('input, textarea, select')) return;
      if (ev.key === 'ArrowLeft') showPly(state.plyView - 1);
      else if (ev.key === 'ArrowRight') showPly(state.plyView + 1);
      else if (ev.key === 'Escape') backToGame();
    });
    $('export-pdn').addEventListener('click', () => { clearError(); exportPdn(); });

    if (window.ResizeObserver) new ResizeObserver(resizeGraph).observe($('graph'));
    else window.addEventListener('resize', resizeGraph);
  }

  bindControls();
  renderPdnControls();
  renderButtons();
  connect();
})();
