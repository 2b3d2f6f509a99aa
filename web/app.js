// regex-chess: the page. The state text of the exported program is the whole game: this
// script draws it (the board rows as a grid, the last line as the prompt, the line before
// as the message, the `Moves:` line as the move list), appends what the player types, and
// hands the text to the worker, which runs the rules. Nothing here decides anything about
// chess: the player's move is sent with a trailing `&`, which asks the rules to play it
// alone, so that it shows at once; the engine's reply is a second run. The engine's
// search is one of the rules modules variants.json lists (a select element switches
// between them, mid-game too: every one reads and writes the same board text). The
// engine that runs the rules is the fast executor compiled to WebAssembly when the site
// has it (variants.json's `wasm`), else, or on request, the browser's own RegExp: both
// give the same states.

const $ = (id) => document.getElementById(id);
const BOARD_ROW = /^([1-8]) ([^ ]) ([^ ]) ([^ ]) ([^ ]) ([^ ]) ([^ ]) ([^ ]) ([^ ])$/u;
const FILES = "abcdefgh";
const EMPTY = "·";
const ENGINE_PROMPT = /press Enter/i;
const PLAYER_PROMPT = /^Your move/;
const GAME_OVER = /^Game over/;
const PROBLEM = /illegal|malformed|ambiguous|not a move|invalid/i;
// Lines shown beside the board (the history of position keys is only for the rules).
const INFO_LINE = /^(Side to move|Castling|En passant|Halfmove clock|Move number|Engine plays): /;
const HIDDEN_LINE = /^History: /;
const GLYPH_LETTERS = { "♔": "K", "♕": "Q", "♖": "R", "♗": "B", "♘": "N", "♙": "P",
  "♚": "k", "♛": "q", "♜": "r", "♝": "b", "♞": "n", "♟": "p" };
const STANDARD_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

let starts = { white: "", black: null };
let startState = "";
let state = "";
let previous = "";
let busy = false;
let picked = null;
let runId = 0;
let runs = 0;
let ruleCount = 0;
let failure = null;
let pendingInput = "";
let lastInput = null;
let watchTimer = null;
// The rules modules on offer ({ name, program, file, summary }) and the one in use.
let variants = [];
let current = null;
let worker = null;
// The engines on offer and the one in use; the site's WebAssembly module, if any.
const ENGINES = {
  wasm: { label: "fast executor (WebAssembly)", words: "the fast executor, compiled to WebAssembly" },
  regexp: { label: "the browser's RegExp", words: "your browser's own regex engine" },
};
let engines = ["regexp"];
let engine = "regexp";
let wasmFile = null;
// Whether the run under way is the engine's reply (not the player's move alone).
let pendingReply = false;

// Every run's input, output, time and rules, for tests (e2e/browser.mjs compares them
// with the CLI).
window.regexChessLog = [];

/** Starts a worker running the rules of `variant` with `engine`, ending the previous one. */
function startWorker(variant) {
  if (worker !== null) worker.terminate();
  current = variant;
  ruleCount = 0;
  const url = new URL("./worker.js", import.meta.url);
  url.searchParams.set("rules", variant.file);
  url.searchParams.set("engine", engine);
  url.searchParams.set("program", variant.program ?? "");
  if (wasmFile) url.searchParams.set("wasm", wasmFile);
  worker = new Worker(url, { type: "module" });
  worker.onmessage = onWorkerMessage;
  $("search-summary").textContent = variant.summary ?? "";
  $("engine-words").textContent = ENGINES[engine].words;
  document.body.dataset.search = variant.name;
  document.body.dataset.engine = engine;
  document.body.dataset.ready = "false";
}

/** Splits a state into board rows, other lines, message, prompt and moves. */
function parse(text) {
  const lines = text.split("\n");
  // "Game over.\n" ends with a newline; a prompt waiting for input does not.
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const prompt = lines.length ? lines[lines.length - 1] : "";
  const message = lines.length > 1 ? lines[lines.length - 2] : "";
  const rows = [];
  for (const line of lines) {
    const m = BOARD_ROW.exec(line);
    if (m) rows.push({ rank: m[1], cells: m.slice(2) });
  }
  const boardIsDrawn = rows.length === 8;
  const info = lines.filter((l) => INFO_LINE.test(l));
  const movesLine = lines.find((l) => l.startsWith("Moves:"));
  const moves = movesLine === undefined ? null : movesLine.slice("Moves:".length).trim();
  // The player sits on the side the engine does not play.
  const flipped = lines.includes("Engine plays: white");
  return { lines, rows: boardIsDrawn ? rows : null, prompt, message, info, flipped, moves };
}

/** The squares whose piece differs between two states (the last move, for display). */
function changedSquares(before, after) {
  const a = parse(before).rows;
  const b = parse(after).rows;
  if (!a || !b) return new Set();
  const out = new Set();
  b.forEach((row, r) => row.cells.forEach((cell, f) => {
    if (a[r].cells[f] !== cell) out.add(FILES[f] + row.rank);
  }));
  return out;
}

function render() {
  const view = parse(state);
  const board = $("board");
  const pre = $("state");
  board.replaceChildren();
  if (view.rows) {
    board.hidden = false;
    pre.hidden = true;
    const last = changedSquares(previous, state);
    const rows = view.flipped ? [...view.rows].reverse() : view.rows;
    const order = view.flipped ? [7, 6, 5, 4, 3, 2, 1, 0] : [0, 1, 2, 3, 4, 5, 6, 7];
    for (const row of rows) {
      const label = document.createElement("div");
      label.className = "label";
      label.textContent = row.rank;
      board.append(label);
      for (const file of order) {
        const glyph = row.cells[file];
        const square = FILES[file] + row.rank;
        const cell = document.createElement("button");
        cell.type = "button";
        cell.className = "square " + ((file + Number(row.rank)) % 2 === 0 ? "light" : "dark");
        if (square === picked) cell.classList.add("picked");
        if (last.has(square)) cell.classList.add("last");
        cell.dataset.square = square;
        cell.dataset.piece = glyph;
        cell.textContent = glyph === EMPTY ? "" : glyph;
        cell.title = square;
        cell.addEventListener("click", () => clickSquare(square, glyph));
        board.append(cell);
      }
    }
    const files = document.createElement("div");
    files.className = "files";
    for (const file of order) {
      const span = document.createElement("span");
      span.textContent = FILES[file];
      files.append(span);
    }
    board.append(document.createElement("div"), files);
  } else {
    board.hidden = true;
    pre.hidden = false;
    pre.textContent = state;
  }
  const message = $("message");
  const thinking = busy && ENGINE_PROMPT.test(view.prompt) ? "The engine is thinking…" : "";
  message.textContent = failure ?? (view.message || thinking);
  message.classList.toggle("error", failure !== null || PROBLEM.test(view.message));
  $("prompt").textContent = view.prompt.trim() || "Input:";
  $("info").textContent = view.info.join("\n");
  $("moves").textContent = view.moves || "No moves yet.";
  $("details").textContent = view.lines.filter((l) => !HIDDEN_LINE.test(l)).join("\n");
  const over = GAME_OVER.test(view.prompt);
  $("move-input").disabled = busy || over;
  $("move-button").disabled = busy || over;
  $("restart").disabled = busy;
  $("search").disabled = busy || variants.length < 2;
  $("engine").disabled = busy || engines.length < 2;
  $("watch-start").disabled = busy || lastInput === null;
  $("side").querySelector('option[value="black"]').disabled = starts.black === null;
  document.body.dataset.busy = String(busy);
  document.body.dataset.runs = String(runs);
  document.body.dataset.over = String(over);
}

function clickSquare(square, glyph) {
  if (busy) return;
  if (picked === null) {
    if (glyph !== EMPTY) picked = square;
  } else if (picked === square) {
    picked = null;
  } else {
    const from = picked;
    picked = null;
    const piece = document.querySelector(`[data-square="${from}"]`)?.dataset.piece;
    const promotes = (piece === "♙" && square[1] === "8") || (piece === "♟" && square[1] === "1");
    const move = from + square + (promotes ? "q" : "");
    $("move-input").value = move;
    submit(move);
    return;
  }
  render();
}

/** Appends the typed line to the state and runs the rules on it. */
function submit(typed) {
  if (busy) return;
  stopWatching();
  busy = true;
  failure = null;
  runId += 1;
  $("progress").hidden = false;
  $("progress-text").textContent = `rule 0 of ${ruleCount.toLocaleString("en")}`;
  $("progress-bar").value = 0;
  $("progress-rule").textContent = "";
  $("progress-origin").textContent = "";
  // The player's move alone first (`&`): it shows at once, then the engine's run.
  const line = PLAYER_PROMPT.test(parse(state).prompt) && typed !== "" ? typed + "&" : typed;
  pendingReply = ENGINE_PROMPT.test(parse(state).prompt);
  pendingInput = state + line + "\n";
  worker.postMessage({ id: runId, state: pendingInput });
  render();
}

function onWorkerMessage(event) {
  const data = event.data;
  if (data.type === "ready") {
    ruleCount = data.rules;
    $("rule-count").textContent = `${ruleCount.toLocaleString("en")}`;
    document.body.dataset.ready = "true";
    return;
  }
  if (data.type === "replay-ready" || data.type === "replay-step") {
    watchMessage(data);
    return;
  }
  if (data.id !== runId) return;
  if (data.type === "progress") {
    $("progress-text").textContent =
      `rule ${(data.index + 1).toLocaleString("en")} of ${data.total.toLocaleString("en")}` +
      ` · ${(data.ms / 1000).toFixed(1)} s`;
    $("progress-bar").value = (data.index + 1) / data.total;
    $("progress-rule").textContent = data.pattern;
    $("progress-origin").textContent = data.origin;
  } else if (data.type === "done") {
    busy = false;
    runs += 1;
    previous = state;
    state = data.state;
    lastInput = pendingInput;
    window.regexChessLog.push({
      input: pendingInput, output: state, ms: data.ms, search: current.name, program: current.program,
      engine, reply: pendingReply,
    });
    $("progress").hidden = true;
    // The time of the last reply stays while the engine thinks about the next.
    if (pendingReply) {
      $("timing").textContent = `Last reply: ${(data.ms / 1000).toFixed(2)} s, ` +
        `${ruleCount.toLocaleString("en")} rules (${current.name}, ${ENGINES[engine].label})`;
    }
    $("move-input").value = "";
    render();
    if (ENGINE_PROMPT.test(parse(state).prompt)) {
      setTimeout(() => submit(""), 50);
    } else {
      $("move-input").focus();
    }
  } else if (data.type === "error") {
    busy = false;
    $("progress").hidden = true;
    failure = `The rules failed to run: ${data.message}`;
    render();
  }
}

$("move-form").addEventListener("submit", (event) => {
  event.preventDefault();
  submit($("move-input").value.trim());
});

$("restart").addEventListener("click", () => {
  if (busy) return;
  stopWatching();
  const engineWhite = $("side").value === "black" && starts.black !== null;
  startState = engineWhite ? starts.black : starts.white;
  state = startState;
  previous = state;
  picked = null;
  lastInput = null;
  $("timing").textContent = "";
  $("pgn").hidden = true;
  $("copy-status").textContent = "";
  $("watch-view").hidden = true;
  $("watch-play").disabled = true;
  $("watch-step").disabled = true;
  render();
  if (ENGINE_PROMPT.test(parse(state).prompt)) submit("");
});

// The game as PGN: the `Moves:` line is already PGN move text.
function pgn() {
  const view = parse(state);
  const start = fenOfStart(startState);
  const result = /white wins/.test(view.message) ? "1-0"
    : /black wins/.test(view.message) ? "0-1"
    : /^Draw/.test(view.message) ? "1/2-1/2" : "*";
  const engineWhite = view.flipped;
  const headers = [
    ["Event", "regex-chess in the browser"],
    ["Site", location.host || "local"],
    ["Date", new Date().toISOString().slice(0, 10).replace(/-/g, ".")],
    ["White", engineWhite ? "regex-chess" : "You"],
    ["Black", engineWhite ? "You" : "regex-chess"],
    ["Result", result],
  ];
  if (start && start !== STANDARD_START) headers.push(["SetUp", "1"], ["FEN", start]);
  const tags = headers.map(([k, v]) => `[${k} "${v}"]`).join("\n");
  return `${tags}\n\n${view.moves ? view.moves + " " : ""}${result}\n`;
}

/** The FEN of a board text (for the PGN's FEN tag), or null. */
function fenOfStart(text) {
  const view = parse(text);
  if (!view.rows) return null;
  const ranks = view.rows.map((row) => {
    let out = "";
    let empty = 0;
    for (const g of row.cells) {
      if (GLYPH_LETTERS[g]) {
        if (empty) out += empty;
        empty = 0;
        out += GLYPH_LETTERS[g];
      } else empty += 1;
    }
    return out + (empty ? empty : "");
  });
  const field = (name) => view.lines.find((l) => l.startsWith(name + ": "))?.slice(name.length + 2);
  return [ranks.join("/"), field("Side to move") === "white" ? "w" : "b", field("Castling"),
    field("En passant"), field("Halfmove clock"), field("Move number")].join(" ");
}

$("copy-pgn").addEventListener("click", async () => {
  const text = pgn();
  const area = $("pgn");
  area.value = text;
  area.hidden = false;
  try {
    await navigator.clipboard.writeText(text);
    $("copy-status").textContent = "copied";
  } catch {
    area.select();
    $("copy-status").textContent = "select and copy the text below";
  }
});

// Watch the machine: the worker replays the last run's input rule by rule.
let watchId = 0;
let watchDone = false;

function stopWatching() {
  if (watchTimer !== null) clearInterval(watchTimer);
  watchTimer = null;
  $("watch-play").textContent = "Play";
}

function askStep() {
  worker.postMessage({ type: "step", id: watchId, skip: $("watch-skip").checked });
}

function watchMessage(data) {
  if (data.id !== watchId) return;
  if (data.type === "replay-ready") {
    $("watch-view").hidden = false;
    $("watch-play").disabled = false;
    $("watch-step").disabled = false;
    $("watch-index").textContent = "ready: press Play or Step";
    return;
  }
  const n = data.total.toLocaleString("en");
  $("watch-index").textContent = `rule ${(data.index + 1).toLocaleString("en")} of ${n}`;
  $("watch-threads").textContent =
    `${data.threads.active} thread${data.threads.active === 1 ? "" : "s"} alive` +
    (data.threads.all > data.threads.active ? ` (${data.threads.all} in all)` : "");
  $("watch-origin").textContent = data.origin || "";
  $("watch-rule").textContent = data.pattern || "";
  const view = $("watch-change");
  view.replaceChildren();
  if (data.change) {
    const c = data.change;
    const del = document.createElement("del");
    del.textContent = c.removed;
    const ins = document.createElement("ins");
    ins.textContent = c.added;
    view.append(document.createTextNode(`at character ${c.at}:\n…${c.pre}`), del, ins,
      document.createTextNode(`${c.post}…`));
  } else {
    view.textContent = data.done ? "The end: the state is the answer." : "(no change)";
  }
  document.body.dataset.watchSteps = String(Number(document.body.dataset.watchSteps ?? 0) + 1);
  if (data.done) {
    watchDone = true;
    stopWatching();
    $("watch-play").disabled = true;
    $("watch-step").disabled = true;
  }
}

$("watch-start").addEventListener("click", () => {
  if (lastInput === null || busy) return;
  stopWatching();
  watchId += 1;
  watchDone = false;
  document.body.dataset.watchSteps = "0";
  worker.postMessage({ type: "replay", id: watchId, state: lastInput });
});

$("watch-step").addEventListener("click", () => {
  stopWatching();
  if (!watchDone) askStep();
});

$("watch-play").addEventListener("click", () => {
  if (watchTimer !== null) {
    stopWatching();
    return;
  }
  const rate = Number($("watch-speed").value);
  watchTimer = setInterval(() => { if (!watchDone) askStep(); }, 1000 / rate);
  $("watch-play").textContent = "Pause";
});

$("watch-speed").addEventListener("change", () => {
  if (watchTimer !== null) {
    stopWatching();
    $("watch-play").click();
  }
});

/** Runs the rules of `variant` with the engine chosen from the next run on, in the same
 * game (the replay of the last answer is forgotten). */
function switchTo(variant) {
  stopWatching();
  lastInput = null;
  $("watch-view").hidden = true;
  $("watch-play").disabled = true;
  $("watch-step").disabled = true;
  $("timing").textContent = "";
  startWorker(variant);
  render();
}

// The engine's search: the next run uses the chosen rules.
$("search").addEventListener("change", () => {
  const chosen = variants.find((v) => v.name === $("search").value);
  if (busy || !chosen || chosen === current) return;
  switchTo(chosen);
});

// The engine: the next run uses the chosen one.
$("engine").addEventListener("change", () => {
  const chosen = $("engine").value;
  if (busy || !engines.includes(chosen) || chosen === engine) return;
  engine = chosen;
  switchTo(current);
});

async function load(name) {
  const response = await fetch(name, { cache: "no-store" });
  return response.ok ? response.text() : null;
}

/** The rules on offer, from variants.json (a site without it has rules.js alone). */
async function loadVariants() {
  const text = await load("variants.json");
  let listed = null;
  try {
    listed = text === null ? null : JSON.parse(text);
  } catch {
    listed = null;
  }
  const all = Array.isArray(listed?.variants) && listed.variants.length
    ? listed.variants
    : [{ name: "rules.js", program: "", file: "rules.js", summary: "" }];
  const first = all.find((v) => v.name === listed?.default) ?? all[0];
  const wasm = typeof listed?.wasm === "string" && typeof WebAssembly === "object" ? listed.wasm : null;
  return { all, first, wasm };
}

const offered = await loadVariants();
variants = offered.all;
for (const v of variants) {
  const option = document.createElement("option");
  option.value = v.name;
  option.textContent = v.name;
  option.title = v.summary ?? "";
  $("search").append(option);
}
$("search").value = offered.first.name;
$("search-choice").hidden = variants.length < 2;
wasmFile = offered.wasm;
engines = wasmFile ? ["wasm", "regexp"] : ["regexp"];
engine = engines[0];
for (const name of engines) {
  const option = document.createElement("option");
  option.value = name;
  option.textContent = ENGINES[name].label;
  $("engine").append(option);
}
$("engine").value = engine;
$("engine-choice").hidden = engines.length < 2;
startWorker(offered.first);
starts = { white: await load("start.txt"), black: await load("start-white.txt") };
startState = starts.white;
state = startState;
previous = state;
render();
if (ENGINE_PROMPT.test(parse(state).prompt)) submit("");
