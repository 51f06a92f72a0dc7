// The seams web app: one page over the server's JSON API.
//
// The server keeps no games. A scored game here is its start and its
// actions; every change asks the server to replay them, so the page shows
// only what the reference says. Analysis keeps a tree of positions in the
// page, each reached by one experiment the server played.

const $ = (id) => document.getElementById(id);

const state = {
  menu: null,          // { variants, max_level }
  variant: null,       // name
  mode: "two",         // two | opponent | analysis | editor
  start: null,         // edited start position text, or null for the initial one
  actions: [],         // the scored game's actions
  view: null,          // the server's last view of the board
  selected: null,      // { cell } or { hand: label, drops: [labels] }
  ply: null,           // the scored game's ply on view, or null for the game itself
  result: null,        // the scored game's result, whatever ply is on view
  flipped: false,
  coordinates: true,   // file and rank labels on the board
  drawOffer: null,     // the player who offered a draw, in a game for two
  analysis: null,      // { nodes: [{position, parent, action, children}], at }
  editor: null,        // { position, token }
  busy: false,
};

// ---- talking to the server ------------------------------------------------

async function api(path, body) {
  const init = body === undefined
    ? {}
    : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const res = await fetch(path, init);
  const data = await res.json().catch(() => ({ error: `answer ${res.status} is not JSON` }));
  if (!res.ok) {
    const err = new Error(data.error || `request failed (${res.status})`);
    err.ply = data.ply;
    throw err;
  }
  return data;
}

function showError(message) {
  const e = $("error");
  e.textContent = message || "";
  e.hidden = !message;
}

async function guarded(work) {
  if (state.busy) return;
  state.busy = true;
  document.body.classList.add("busy");
  try {
    showError("");
    await work();
  } catch (err) {
    // The server's messages name the ply themselves.
    showError(err.message);
  } finally {
    state.busy = false;
    document.body.classList.remove("busy");
  }
}

// ---- the board ------------------------------------------------------------

// The cell shapes of the drawn board, by canonical cell name.
function cellShapes() {
  const shapes = new Map();
  for (const el of $("board").querySelectorAll("[data-cell]")) {
    if (!el.closest("[data-mark]")) shapes.set(el.dataset.cell, el);
  }
  return shapes;
}

// A cell shape's box in the picture's own coordinates, whatever groups
// and transforms the shape sits in.
function boxOf(svg, el) {
  const b = el.getBBox();
  const m = svg.getScreenCTM().inverse().multiply(el.getScreenCTM());
  const p = (x, y) => new DOMPoint(x, y).matrixTransform(m);
  const corners = [p(b.x, b.y), p(b.x + b.width, b.y), p(b.x, b.y + b.height), p(b.x + b.width, b.y + b.height)];
  const xs = corners.map((c) => c.x), ys = corners.map((c) => c.y);
  const x = Math.min(...xs), y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

// A button with its text, class and click handler.
function button(text, className, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  if (className) b.className = className;
  b.textContent = text;
  b.addEventListener("click", onClick);
  return b;
}

function svgEl(name, attrs) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

function facingArrow(f) {
  return f === "up" ? "▲" : f === "down" ? "▼" : "";
}

// The actions the selection can make, grouped by destination. A hand
// entry's drops may carry several labels (a Kyoto token drops either face
// up), as the server lists them.
function selectedMoves() {
  const sel = state.selected;
  if (!sel || !state.view || viewing()) return [];
  return state.view.moves.filter((m) =>
    sel.hand !== undefined ? !m.from && sel.drops.includes(m.drop) : m.from === sel.cell);
}

// Whether an earlier position of the scored game is on view.
function viewing() {
  return state.ply !== null && (state.mode === "two" || state.mode === "opponent");
}

// The picture is replaced only when the server drew a new one; a
// selection only redraws the marks, so a drag keeps its cells.
let drawnSvg = null;

function drawBoard() {
  const board = $("board");
  const picture = state.view ? state.view.svg : "";
  if (picture !== drawnSvg) {
    board.innerHTML = picture;
    drawnSvg = picture;
  }
  fitBoard();
  const svg = board.querySelector("svg");
  if (!svg) return;
  const old = svg.querySelector("#app-marks");
  if (old) old.remove();
  const shapes = cellShapes();
  const marks = svgEl("g", { id: "app-marks", "pointer-events": "none" });
  const occupied = new Set(pieceCells());
  if (state.view.in_check) {
    for (const cell of state.view.check_cells || []) {
      const s = shapes.get(cell);
      if (s) marks.append(ring(boxOf(svg, s), "#d62020", "check"));
    }
  }
  if (state.selected && state.selected.cell) {
    const s = shapes.get(state.selected.cell);
    if (s) marks.append(ring(boxOf(svg, s), "#e0a000", "selected"));
  }
  const byCell = new Map();
  for (const m of selectedMoves()) {
    if (!byCell.has(m.to)) byCell.set(m.to, []);
    byCell.get(m.to).push(m);
  }
  for (const [cell, moves] of byCell) {
    const s = shapes.get(cell);
    if (!s) continue;
    const b = boxOf(svg, s);
    const cx = b.x + b.width / 2, cy = b.y + b.height / 2;
    const r = Math.min(b.width, b.height);
    const g = svgEl("g", { "data-dest": cell });
    if (occupied.has(cell)) {
      g.append(svgEl("circle", { cx, cy, r: r * 0.42, fill: "none", stroke: "#1e9e45", "stroke-width": r * 0.08 }));
    } else {
      g.append(svgEl("circle", { cx, cy, r: r * 0.16, fill: "#1e9e45", "fill-opacity": 0.8 }));
    }
    const facings = [...new Set(moves.map((m) => m.facing).filter(Boolean))];
    if (facings.length > 0) {
      const t = svgEl("text", { x: cx, y: b.y + r * 0.28, "text-anchor": "middle", "font-size": r * 0.26, fill: "#1e9e45" });
      t.textContent = facings.map(facingArrow).join("");
      g.append(t);
    }
    marks.append(g);
  }
  svg.append(marks);
  showCrossings();
}

// The room the compact bar under the board (whose turn, hands, the game's
// buttons) keeps on the first screen of a narrow window, in pixels.
const BAR_ROOM = 160;

// Gives the board the largest size that fits: beside the side panel, its
// area's box; on a narrow window (the panel under the board), the window's
// width, and its height less the header and the compact bar. The picture's
// size is the board's alone, so the board keeps its place and size for a
// whole game; only the window and the variant change it.
function fitBoard() {
  const header = document.querySelector("header");
  document.documentElement.style.setProperty("--header-height", `${header.offsetHeight}px`);
  const svg = $("board").querySelector("svg");
  if (!svg || !svg.viewBox.baseVal || !svg.viewBox.baseVal.width) return;
  const box = svg.viewBox.baseVal;
  const area = $("board-area");
  const narrow = window.matchMedia("(max-width: 900px)").matches;
  const room = narrow
    ? window.innerHeight - header.offsetHeight - BAR_ROOM
    : area.clientHeight;
  const scale = Math.max(0.1, Math.min(area.clientWidth / box.width, room / box.height));
  svg.style.width = `${Math.floor(box.width * scale)}px`;
  svg.style.height = `${Math.floor(box.height * scale)}px`;
}

// The legend beside the board, line by line as the server drew it; redrawn
// only when it changes.
let shownLegend = null;

function showLegend(v) {
  const legend = JSON.stringify([v.title, v.legend]);
  if (legend === shownLegend) return;
  shownLegend = legend;
  $("legend-title").textContent = v.title || "";
  const list = $("legend-lines");
  list.innerHTML = "";
  for (const entry of v.legend || []) {
    const li = document.createElement("li");
    const icon = document.createElement("span");
    icon.className = "legend-icon";
    // A small picture the server drew, like the board itself.
    if (entry.icon) icon.innerHTML = entry.icon;
    li.append(icon);
    if (entry.label) {
      const label = document.createElement("b");
      label.className = entry.label.startsWith("+") ? "legend-label promoted" : "legend-label";
      label.textContent = entry.label;
      li.append(label);
    }
    const text = document.createElement("span");
    text.textContent = entry.text;
    li.append(text);
    list.append(li);
  }
}

function ring(b, colour, name) {
  const r = Math.min(b.width, b.height);
  return svgEl("rect", {
    x: b.x + r * 0.04, y: b.y + r * 0.04, width: b.width - r * 0.08, height: b.height - r * 0.08,
    fill: "none", stroke: colour, "stroke-width": r * 0.08, "data-app-mark": name,
  });
}

// Cells with a piece on them.
function pieceCells() {
  return state.view ? state.view.pieces.map((p) => p.cell) : [];
}

function cellAt(event) {
  const el = event.target.closest && event.target.closest("[data-cell]");
  return el && !el.closest("#app-marks") ? el.dataset.cell : null;
}

function movesFrom(cell) {
  if (viewing()) return [];
  return (state.view ? state.view.moves : []).filter((m) => m.from === cell);
}

// A click on a cell: select a piece that can move, or move the selection.
function clickCell(cell) {
  if (state.mode === "editor") return editCell(cell);
  if (!state.view || state.busy) return;
  const targets = selectedMoves().filter((m) => m.to === cell);
  if (targets.length > 0) return choose(targets);
  state.selected = movesFrom(cell).length > 0 ? { cell } : null;
  show();
}

// Plays one of `moves` (all to one destination), asking when they differ.
function choose(moves) {
  if (moves.length === 1) return play(moves[0].text);
  const box = $("choice");
  const buttons = $("choice-buttons");
  buttons.innerHTML = "";
  const faces = new Set(moves.map((m) => m.drop)).size > 1;
  $("choice-title").textContent = faces ? "Choose the face to drop" : "Choose the outcome";
  for (const m of moves) {
    const parts = [m.text];
    if (faces && m.drop) parts.push(`${m.drop} face up`);
    if (m.promote) parts.push("promotes");
    else if (moves.some((o) => o.promote)) parts.push("does not promote");
    if (m.facing) parts.push(`faces ${m.facing} ${facingArrow(m.facing)}`);
    const b = button(parts.join(" — "), "", () => { box.hidden = true; play(m.text); });
    b.dataset.action = m.text;
    buttons.append(b);
  }
  box.hidden = false;
  placeChoice([moves[0].to, moves[0].from].filter(Boolean));
  buttons.querySelector("button").focus({ preventScroll: true });
}

// Puts the choice beside the move, never over its destination (nor its
// origin): above both cells when there is room there, below otherwise.
function placeChoice(cells) {
  const box = $("choice");
  box.style.top = "";
  const shapes = cellShapes();
  const boxes = cells.map((c) => shapes.get(c)).filter(Boolean).map((s) => s.getBoundingClientRect());
  if (boxes.length === 0) return;
  const area = $("board-area").getBoundingClientRect();
  const top = Math.min(...boxes.map((b) => b.top)) - area.top;
  const bottom = Math.max(...boxes.map((b) => b.bottom)) - area.top;
  const gap = 8;
  const above = top - gap - box.offsetHeight;
  box.style.top = `${above >= 0 ? above : bottom + gap}px`;
  box.scrollIntoView({ block: "nearest" });
}

function closeChoice() {
  $("choice").hidden = true;
}

// ---- drag: press on a piece, release on a destination ----------------------

let pressed = null;

function pointerDown(event) {
  const cell = cellAt(event);
  if (!cell || state.mode === "editor") return;
  pressed = cell;
  if (movesFrom(cell).length > 0 && !(state.selected && selectedMoves().some((m) => m.to === cell))) {
    state.selected = { cell };
    drawBoard();
  }
}

function pointerUp(event) {
  const from = pressed;
  pressed = null;
  const cell = cellAt(event);
  if (!cell) return;
  if (state.mode === "editor") return editCell(cell);
  if (from && from !== cell && state.selected && state.selected.cell === from) {
    const targets = selectedMoves().filter((m) => m.to === cell);
    if (targets.length > 0) return choose(targets);
  }
  if (from === cell) clickCell(cell);
}

// ---- scored games -----------------------------------------------------------

// Shows the scored game: where it stands, or the earlier position on view.
async function refreshGame() {
  if (state.ply !== null && state.ply >= state.actions.length) state.ply = null;
  const actions = state.ply === null ? state.actions : state.actions.slice(0, state.ply);
  const view = await api("/api/game", {
    variant: state.variant, start: state.start, actions, flip: state.flipped,
    coordinates: state.coordinates,
  });
  if (state.ply === null) state.result = view.result;
  state.view = view;
  state.selected = null;
  show();
}

// Views the position after `ply` actions of the scored game (the game
// itself at its last ply); the game keeps all its actions.
async function goToPly(ply) {
  const last = state.actions.length;
  const to = Math.max(0, Math.min(last, ply));
  const now = state.ply === null ? last : state.ply;
  if (to === now) return;
  state.ply = to === last ? null : to;
  closeChoice();
  await guarded(refreshGame);
}

function opponentSide() { return $("opponent-side").value; }

async function play(text) {
  if (state.mode === "analysis") return guarded(() => analysisStep(text));
  await guarded(async () => {
    state.ply = null;
    state.actions.push(text);
    try {
      await refreshGame();
    } catch (err) {
      state.actions.pop();
      throw err;
    }
    state.drawOffer = null;
    await opponentTurn();
  });
}

async function opponentTurn() {
  if (state.mode !== "opponent" || !state.view || state.view.result || viewing()) return;
  if (state.view.to_move !== opponentSide()) return;
  $("status").textContent = "The practice opponent is thinking…";
  const answer = await api("/api/opponent", {
    variant: state.variant, start: state.start, actions: state.actions,
    level: Number($("opponent-level").value), seed: state.actions.length,
  });
  if (answer.action) {
    state.actions.push(answer.action);
    await refreshGame();
  }
}

async function newGame(start) {
  state.start = start === undefined ? null : start;
  state.actions = [];
  state.ply = null;
  state.drawOffer = null;
  state.analysis = null;
  if (state.mode === "analysis" || state.mode === "editor") setMode("two");
  await refreshGame();
  await opponentTurn();
}

async function undo() {
  await guarded(async () => {
    state.ply = null;
    if (state.actions.length === 0) return;
    state.actions.pop();
    // Against the opponent, take back its answer too, so it is the
    // player's turn again.
    if (state.mode === "opponent" && state.actions.length > 0) {
      const view = await api("/api/game", { variant: state.variant, start: state.start, actions: state.actions });
      if (view.to_move === opponentSide()) state.actions.pop();
    }
    await refreshGame();
  });
}

async function offerDraw() {
  if (!state.view || state.result) return;
  if (viewing()) {
    state.ply = null;
    await guarded(refreshGame);
  }
  if (state.mode === "opponent") {
    await guarded(async () => {
      const answer = await api("/api/opponent", {
        variant: state.variant, start: state.start, actions: state.actions,
        level: Number($("opponent-level").value), seed: state.actions.length,
      });
      if (answer.accepts_draw) {
        state.actions.push("draw");
        await refreshGame();
      } else {
        showError("The practice opponent declines the draw.");
      }
    });
    return;
  }
  state.drawOffer = state.view.to_move;
  show();
}

// ---- analysis ---------------------------------------------------------------

// The analysis tree: node 0 is the position analysis began from; every
// other node is one experiment (action, mover, king safety) after its
// parent. The server replays the path to a node on each request.
async function startAnalysis(position) {
  const mover = state.view ? state.view.to_move : "first";
  state.analysis = { root: position, rootMover: mover, nodes: [{ parent: null, step: null, children: [] }], at: 0 };
  setMode("analysis");
  await analysisGo(0);
}

// Who moves at a node unless the player says otherwise: the army that did
// not make the experiment leading there.
function naturalMover(index) {
  const node = state.analysis.nodes[index];
  if (node.step === null) return state.analysis.rootMover;
  return node.step.mover === "first" ? "second" : "first";
}

function analysisNode() { return state.analysis.nodes[state.analysis.at]; }

// The nodes from the root (left out) to `index`, in order.
function analysisPath(index) {
  const path = [];
  for (let i = index; state.analysis.nodes[i].parent !== null; i = state.analysis.nodes[i].parent) {
    path.unshift(i);
  }
  return path;
}

function analysisSteps(index) {
  return analysisPath(index).map((i) => state.analysis.nodes[i].step);
}

async function analysisShow() {
  return api("/api/analysis", {
    variant: state.variant, position: state.analysis.root, steps: analysisSteps(state.analysis.at),
    mover: $("mover").value, king_safety: $("king-safety").checked, flip: state.flipped,
    coordinates: state.coordinates,
  });
}

// The last node along the first variation from the one on view.
function analysisEnd() {
  let i = state.analysis.at;
  while (state.analysis.nodes[i].children.length > 0) i = state.analysis.nodes[i].children[0];
  return i;
}

async function analysisStep(text) {
  const step = { action: text, mover: $("mover").value, king_safety: $("king-safety").checked };
  const node = analysisNode();
  let index = node.children.find((i) => {
    const s = state.analysis.nodes[i].step;
    return s.action === step.action && s.mover === step.mover && s.king_safety === step.king_safety;
  });
  if (index === undefined) {
    state.analysis.nodes.push({ parent: state.analysis.at, step, children: [] });
    index = state.analysis.nodes.length - 1;
    node.children.push(index);
  }
  state.analysis.at = index;
  // The other army moves next, as in a game; the player may switch.
  $("mover").value = step.mover === "first" ? "second" : "first";
  const view = await analysisShow();
  state.view = view;
  state.selected = null;
  show();
}

async function analysisGo(index, keepMover) {
  await guarded(async () => {
    state.analysis.at = index;
    if (!keepMover) $("mover").value = naturalMover(index);
    state.view = await analysisShow();
    state.selected = null;
    show();
  });
}

// ---- the editor -------------------------------------------------------------

async function startEditor(position) {
  await guarded(async () => {
    const palette = await api("/api/palette", { variant: state.variant });
    state.editor = { position, token: null, palette: palette.pieces, valid: true };
    state.mode = "editor";
    $("mode").value = "editor";
    await editorShow(position);
  });
}

async function editorShow(position, op) {
  const answer = await api("/api/edit", {
    variant: state.variant, position, flip: state.flipped, coordinates: state.coordinates, ...(op || {}),
  });
  state.editor.position = answer.position;
  state.editor.valid = answer.valid;
  state.view = answer;
  show();
}

function editCell(cell) {
  if (!state.editor || state.editor.token === null) {
    showError("Choose a piece (or “empty”) first.");
    return;
  }
  const token = state.editor.token === "" ? null : state.editor.token;
  state.editor.field = null;
  guarded(() => editorShow(state.editor.position, { place: { cell, token } }));
}

// ---- showing it all -----------------------------------------------------------

function setMode(mode) {
  state.mode = mode;
  $("mode").value = mode;
  show();
}

function show() {
  const v = state.view;
  const mode = state.mode;
  $("opponent-options").hidden = mode !== "opponent";
  $("game-controls").hidden = mode === "analysis" || mode === "editor";
  $("analysis-controls").hidden = mode !== "analysis";
  $("editor-controls").hidden = mode !== "editor";
  $("flip").setAttribute("aria-pressed", String(state.flipped));
  $("coordinates").setAttribute("aria-pressed", String(state.coordinates));
  drawBoard();
  remember();
  if (!v) return;
  const names = v.names;
  nameSides(names);
  $("status").textContent = statusText(v);
  const over = scored(mode) ? state.result : null;
  const result = $("result");
  result.hidden = !over;
  result.textContent = over ? `Game over: ${over.text}.` : "";
  $("position").value = v.position;
  showHands(v);
  showMoves(v);
  showLegend(v);
  $("draw-offer").hidden = !state.drawOffer || !!state.result;
  if (state.drawOffer) {
    $("draw-offer-text").textContent = `${names[state.drawOffer === "first" ? 0 : 1]} offers a draw.`;
  }
  for (const id of ["resign", "offer-draw", "undo"]) $(id).disabled = mode !== "analysis" && !!state.result && id !== "undo";
  if (mode === "analysis") showVariations();
  $("analysis-refused").hidden = !(mode === "analysis" && v.refused);
  $("analysis-refused").textContent = v.refused ? `This position cannot start a game: ${v.refused}` : "";
  if (mode === "editor") showEditor();
}

function scored(mode) {
  return mode === "two" || mode === "opponent";
}

// A player by the family's own name for them.
function nameOf(v, player) {
  return v.names[player === "first" ? 0 : 1];
}

// The selects that name a side say it as the rules do.
function nameSides(names) {
  for (const id of ["mover", "opponent-side"]) {
    for (const o of $(id).options) o.textContent = names[o.value === "first" ? 0 : 1];
  }
}

// What the status line says: who moves, or how the game ended.
function statusText(v) {
  const mode = state.mode;
  if (mode === "editor") return `Editing: ${nameOf(v, v.to_move)} to move`;
  if (mode === "analysis") {
    // The army the player chose moves, whatever the position's own side.
    const mover = nameOf(v, v.mover);
    const check = !v.in_check ? "" : v.to_move === v.mover ? " — in check" : ` — ${nameOf(v, v.to_move)} is in check`;
    return `Analysis: ${mover} to move${check}`;
  }
  const toMove = `${nameOf(v, v.to_move)} to move${v.in_check ? " — in check" : ""}`;
  if (viewing()) {
    const after = state.ply === 0 ? "the start" : `move ${state.ply} of ${state.actions.length}`;
    return `Viewing ${after} (End returns to the game): ${v.result ? v.result.text : toMove}`;
  }
  if (v.result) return `Game over: ${v.result.text}.`;
  return toMove;
}

// Why a piece in hand cannot be dropped now, or null when it can.
function cannotDrop(v, i, side, h) {
  if (state.mode === "editor") return "the editor sets hands in its fields";
  if (scored(state.mode) && state.result) return "the game is over";
  if (viewing()) return "an earlier position is on view (End returns to the game)";
  if (side !== (v.mover || v.to_move)) return `not ${v.names[i]}'s turn`;
  const drops = h.drops || [h.label];
  if (!v.moves.some((m) => !m.from && drops.includes(m.drop))) return "no legal drop";
  return null;
}

function showHands(v) {
  for (const [i, side] of ["first", "second"].entries()) {
    const box = $(`hand-${side}`);
    box.innerHTML = "";
    const title = document.createElement("span");
    title.textContent = `${v.names[i]} in hand: `;
    box.append(title);
    const held = v.hands[i].filter((h) => h.count > 0);
    if (held.length === 0) box.append("nothing");
    for (const h of held) {
      const drops = h.drops || [h.label];
      const b = button(h.count > 1 ? `${h.label} ×${h.count}` : h.label, "hand-piece", () => {
        state.selected = { hand: h.label, drops };
        show();
      });
      b.dataset.drop = h.label;
      b.dataset.side = side;
      const why = cannotDrop(v, i, side, h);
      b.disabled = why !== null;
      if (why !== null) {
        // Said to the pointer (title) and to a screen reader (the text).
        b.title = `${h.label}: ${why}`;
        b.dataset.why = why;
        const note = document.createElement("span");
        note.className = "visually-hidden";
        note.textContent = ` (${why})`;
        b.append(note);
      } else {
        b.title = drops.length > 1 ? `drop ${h.label}: either face up (${drops.join(" or ")})` : `drop ${h.label}`;
      }
      b.classList.toggle("selected", why === null && !!state.selected && state.selected.hand === h.label);
      box.append(b);
    }
  }
}

function showMoves(v) {
  const list = $("moves");
  list.innerHTML = "";
  if (state.mode === "analysis") {
    for (const i of analysisPath(state.analysis.at)) {
      const li = document.createElement("li");
      li.append(button(stepText(state.analysis.nodes[i].step), "line-move", () => analysisGo(i)));
      if (i === state.analysis.at) li.classList.add("current");
      list.append(li);
    }
    return;
  }
  // The game's every action, whatever ply is on view; a click views the
  // position after it.
  const on = state.ply === null ? state.actions.length : state.ply;
  for (const [i, a] of state.actions.entries()) {
    const li = document.createElement("li");
    li.textContent = a;
    li.dataset.ply = String(i + 1);
    li.addEventListener("click", () => goToPly(i + 1));
    if (i + 1 === on) li.classList.add("current");
    list.append(li);
  }
}

function stepText(step) {
  return step.king_safety ? step.action : `${step.action} (no king safety)`;
}

function showVariations() {
  const box = $("variations");
  box.innerHTML = "";
  const node = analysisNode();
  $("back").disabled = node.parent === null;
  $("forward").disabled = node.children.length === 0;
  if (node.children.length > 1) {
    box.append("Variations: ");
    for (const i of node.children) {
      box.append(button(stepText(state.analysis.nodes[i].step), "variation", () => analysisGo(i)));
    }
  }
}

function showEditor() {
  const ed = state.editor;
  if (!ed) return;
  const box = $("palette");
  box.innerHTML = "";
  const entries = [{ token: "", text: "empty" }, ...ed.palette];
  for (const p of entries) {
    const b = button(p.text, "palette-piece", () => { ed.token = p.token; show(); });
    b.dataset.token = p.token;
    b.title = p.title || "";
    b.classList.toggle("selected", ed.token === p.token);
    box.append(b);
  }
  const verdict = $("editor-verdict");
  verdict.textContent = ed.valid === true ? "The reference accepts this position." : `The reference refuses this position: ${ed.valid}`;
  verdict.className = ed.valid === true ? "ok" : "refused";
  if (document.activeElement !== $("editor-text")) $("editor-text").value = ed.position;
  $("editor-play").disabled = ed.valid !== true;
  $("editor-analyse").disabled = ed.valid !== true;
  showEditorFields();
}

function showEditorFields() {
  const box = $("editor-fields");
  box.innerHTML = "";
  const ed = state.editor;
  const v = state.view;
  const side = button(`Side to move: ${v.names[v.to_move === "first" ? 0 : 1]} (switch)`, "", () => {
    ed.field = null;
    guarded(() => editorShow(ed.position, { side: v.to_move === "first" ? "second" : "first" }));
  });
  side.id = "editor-side";
  box.append(side);
  let note = null;
  for (const [i, who] of ["first", "second"].entries()) {
    for (const h of v.hands[i]) {
      const key = `${who}:${h.label}`;
      const label = document.createElement("label");
      label.textContent = `${v.names[i]} ${h.label} in hand `;
      const input = document.createElement("input");
      input.type = "number";
      input.min = "0";
      input.max = "99";
      input.dataset.hand = key;
      // The field last typed in keeps what was typed, with the
      // reference's refusal beside it, until another edit.
      const typed = ed.field && ed.field.key === key ? ed.field : null;
      input.value = typed ? typed.value : String(h.count);
      input.addEventListener("change", () => editHand(who, h.label, key, input.value));
      label.append(input);
      const refusal = typed && (typed.error || (ed.valid !== true ? `refused: ${ed.valid}` : null));
      if (refusal) {
        const why = document.createElement("span");
        why.className = "field-refusal";
        why.dataset.field = key;
        why.setAttribute("role", "alert");
        why.textContent = refusal;
        input.setAttribute("aria-invalid", "true");
        label.append(why);
        note = why;
      }
      box.append(label);
    }
  }
  if (note) note.scrollIntoView({ block: "nearest" });
}

// A hand count typed in the editor: the server writes it into the text
// and the reference judges it; what was typed stays in the field.
async function editHand(who, label, key, value) {
  const ed = state.editor;
  ed.field = { key, value, error: null };
  await guarded(async () => {
    try {
      await editorShow(ed.position, { hand: { player: who, label, count: Number(value) } });
    } catch (err) {
      ed.field.error = err.message;
      show();
    }
  });
}

// ---- across the seams ---------------------------------------------------------

// The server draws, hidden, every move that crosses a seam as a route
// leaving through the edge and coming back in through its partner; the
// selected piece's are shown.
function showCrossings() {
  const from = state.selected && state.selected.cell;
  for (const g of $("board").querySelectorAll("[data-crossing]")) {
    g.classList.toggle("shown", !!from && g.dataset.from === from);
  }
}

// Ghost cells (drawn by the server beyond every glued edge) are shown on
// request; the pointer on one lights the real cell it shows.
function ghostOver(event) {
  for (const el of $("board").querySelectorAll(".ghost-lit")) el.classList.remove("ghost-lit");
  const hit = event && event.target.closest && event.target.closest("[data-ghost-hit]");
  if (!hit || !$("board").classList.contains("show-ghosts")) return;
  const real = [...$("board").querySelectorAll("[data-cell]")].find((el) => el.dataset.cell === hit.dataset.ghostHit);
  if (real) real.classList.add("ghost-lit");
}

function wireGhosts() {
  const toggle = () => {
    $("board").classList.toggle("show-ghosts", $("ghosts").checked);
    ghostOver(null);
  };
  $("ghosts").addEventListener("change", toggle);
  toggle();
  $("board").addEventListener("pointerover", ghostOver);
  $("board").addEventListener("pointerleave", () => ghostOver(null));
}

// ---- start-up and controls ------------------------------------------------------

function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // The link has done its work once clicked; free the file's memory.
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

async function loadFile(file) {
  await guarded(async () => {
    if (file.size > 4 * 1024 * 1024) throw new Error(`${file.name} is larger than 4 MiB`);
    let record;
    try {
      record = JSON.parse(await file.text());
    } catch (err) {
      throw new Error(`${file.name} is not JSON: ${err.message}`);
    }
    const view = await api("/api/load", { record });
    state.variant = view.variant;
    $("variant").value = view.variant;
    state.start = view.record.start.kind === "edited" ? view.record.start.position : null;
    state.actions = view.actions;
    state.ply = null;
    state.result = view.result;
    state.analysis = null;
    if (state.mode === "analysis" || state.mode === "editor") setMode("two");
    state.view = view;
    state.selected = null;
    // The page draws what it was asked to: the labels as set here.
    if (!state.coordinates) await refreshGame();
    show();
  });
}

// On the tetrahedron, the cells a cell touches on the next ranks are
// lit under the pointer, so the stacking of the slices can be seen.
function pointerOver(event) {
  for (const el of $("board").querySelectorAll(".near")) el.classList.remove("near");
  const el = event.target.closest && event.target.closest("[data-near]");
  if (!el) return;
  for (const name of el.dataset.near.split(" ")) {
    const near = $("board").querySelector(`[data-cell='${name}']`);
    if (near) near.classList.add("near");
  }
}

// The server draws the board (turned, with or without its labels): asks
// it again for what is on view.
function redraw() {
  if (state.mode === "analysis") return analysisGo(state.analysis.at, true);
  if (state.mode === "editor") return guarded(() => editorShow(state.editor.position));
  return guarded(refreshGame);
}

async function changeMode() {
  const mode = $("mode").value;
  const position = state.view ? state.view.position : null;
  if (mode === "analysis") return startAnalysis(position);
  if (mode === "editor") return startEditor(position);
  const wasScored = scored(state.mode);
  state.mode = mode;
  if (wasScored) { show(); await guarded(opponentTurn); } else await guarded(() => newGame());
}

// The keys players expect: ← and → step through the moves (through the
// line in analysis), Home and End jump to either end, Esc lets go of a
// selection or a choice.
function key(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const t = event.target;
  if (t && (["INPUT", "SELECT", "TEXTAREA"].includes(t.tagName) || t.isContentEditable)) return;
  if (event.key === "Escape") {
    if (!$("choice").hidden) closeChoice();
    else if (state.selected) {
      state.selected = null;
      show();
    } else return;
    event.preventDefault();
    return;
  }
  if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key) || state.busy) return;
  event.preventDefault();
  if (state.mode === "analysis" && state.analysis) {
    const node = analysisNode();
    const to = {
      ArrowLeft: node.parent,
      ArrowRight: node.children.length > 0 ? node.children[0] : null,
      Home: 0,
      End: analysisEnd(),
    }[event.key];
    if (to !== null && to !== state.analysis.at) analysisGo(to);
    return;
  }
  if (!scored(state.mode)) return;
  const now = state.ply === null ? state.actions.length : state.ply;
  const to = { ArrowLeft: now - 1, ArrowRight: now + 1, Home: 0, End: state.actions.length }[event.key];
  goToPly(to);
}

// The last variant, mode and labels, kept for the next visit.
const KEPT = "seams.app";

function kept() {
  try {
    return JSON.parse(localStorage.getItem(KEPT)) || {};
  } catch {
    return {};
  }
}

function remember() {
  if (!state.variant) return;
  try {
    localStorage.setItem(KEPT, JSON.stringify({ variant: state.variant, mode: state.mode, coordinates: state.coordinates }));
  } catch {
    // Storage may be off; the page works without it.
  }
}

function wire() {
  const board = $("board");
  window.addEventListener("resize", fitBoard);
  board.addEventListener("pointerover", pointerOver);
  board.addEventListener("pointerdown", pointerDown);
  board.addEventListener("pointerup", pointerUp);
  $("variant").addEventListener("change", () => { state.variant = $("variant").value; guarded(() => newGame()); });
  $("mode").addEventListener("change", changeMode);
  document.addEventListener("keydown", key);
  $("opponent-side").addEventListener("change", () => guarded(opponentTurn));
  $("new-game").addEventListener("click", () => guarded(() => newGame()));
  $("flip").addEventListener("click", () => {
    state.flipped = !state.flipped;
    return redraw();
  });
  $("coordinates").addEventListener("click", () => {
    state.coordinates = !state.coordinates;
    return redraw();
  });
  $("undo").addEventListener("click", undo);
  $("resign").addEventListener("click", () => play("resign"));
  $("offer-draw").addEventListener("click", offerDraw);
  $("accept-draw").addEventListener("click", () => { state.drawOffer = null; play("draw"); });
  $("decline-draw").addEventListener("click", () => { state.drawOffer = null; show(); });
  $("analyse").addEventListener("click", () => startAnalysis(state.view.position));
  $("mover").addEventListener("change", () => analysisGo(state.analysis.at, true));
  $("king-safety").addEventListener("change", () => analysisGo(state.analysis.at, true));
  $("back").addEventListener("click", () => {
    const node = analysisNode();
    if (node.parent !== null) analysisGo(node.parent);
  });
  $("forward").addEventListener("click", () => {
    const node = analysisNode();
    if (node.children.length > 0) analysisGo(node.children[0]);
  });
  $("choice-cancel").addEventListener("click", closeChoice);
  $("save").addEventListener("click", () => {
    if (state.view && state.view.record) {
      download(`${state.variant}.json`, JSON.stringify(state.view.record, null, 2));
    } else {
      showError("Only a scored game can be saved; analysis and the editor are not games.");
    }
  });
  $("load").addEventListener("change", (e) => {
    const file = e.target.files[0];
    e.target.value = "";
    if (file) loadFile(file);
  });
  $("import").addEventListener("click", () => guarded(async () => {
    const answer = await api("/api/import", { variant: state.variant, position: $("position").value });
    await newGame(answer.position);
  }));
  $("editor-apply").addEventListener("click", () => guarded(() => editorShow($("editor-text").value)));
  $("editor-play").addEventListener("click", () => guarded(() => newGame(state.editor.position)));
  $("editor-analyse").addEventListener("click", () => startAnalysis(state.editor.position));
}

async function main() {
  wire();
  wireGhosts();
  // A link naming a variant opens a game for two of it; otherwise the
  // page opens as it was left.
  const last = kept();
  const wanted = new URLSearchParams(location.search).get("variant");
  if (typeof last.coordinates === "boolean") state.coordinates = last.coordinates;
  const modes = [...$("mode").options].map((o) => o.value);
  const mode = wanted === null && modes.includes(last.mode) ? last.mode : "two";
  await guarded(async () => {
    state.menu = await api("/api/variants");
    for (const v of state.menu.variants) {
      const o = document.createElement("option");
      o.value = v.name;
      o.textContent = v.name;
      $("variant").append(o);
    }
    for (let level = 0; level <= state.menu.max_level; level++) {
      const o = document.createElement("option");
      o.value = String(level);
      o.textContent = String(level);
      $("opponent-level").append(o);
    }
    $("opponent-level").value = String(Math.min(2, state.menu.max_level));
    const known = (name) => state.menu.variants.some((v) => v.name === name);
    state.variant = known(wanted) ? wanted : known(last.variant) ? last.variant : state.menu.variants[0].name;
    $("variant").value = state.variant;
    await refreshGame();
  });
  if (mode !== "two" && state.view) {
    $("mode").value = mode;
    await changeMode();
  }
  document.body.dataset.ready = "true";
}

main();
