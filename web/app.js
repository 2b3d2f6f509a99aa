// regex-chess: the page. The state text of the exported program is the whole game: this
// script draws it (the board rows as a grid, the last line as the prompt, the line before
// as the message), appends what the player types, and hands the text to the worker,
// which runs the rules. Nothing here decides anything about chess.

const $ = (id) => document.getElementById(id);
const BOARD_ROW = /^([1-8]) ([^ ]) ([^ ]) ([^ ]) ([^ ]) ([^ ]) ([^ ]) ([^ ]) ([^ ])$/u;
const FILES = "abcdefgh";
const EMPTY = "·";
const ENGINE_PROMPT = /press Enter/i;
const GAME_OVER = /^Game over/;
const PROBLEM = /illegal|malformed|not a move|invalid/i;
// Lines shown beside the board (the history of position keys is long and only for the rules).
const INFO_LINE = /^(Side to move|Castling|En passant|Halfmove clock|Move number|Engine plays): /;

let startState = "";
let state = "";
let busy = false;
let picked = null;
let runId = 0;
let runs = 0;
let ruleCount = 0;
let failure = null;
let pendingInput = "";

// Every run's input and output, for tests (e2e/browser.mjs compares them with the CLI).
window.regexChessLog = [];

const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });

/** Splits a state into board rows, other lines, message and prompt. */
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
  // The player sits on the side the engine does not play.
  const flipped = lines.includes("Engine plays: white");
  return { lines, rows: boardIsDrawn ? rows : null, prompt, message, info, flipped };
}

function render() {
  const view = parse(state);
  const board = $("board");
  const pre = $("state");
  board.replaceChildren();
  if (view.rows) {
    board.hidden = false;
    pre.hidden = true;
    const last = lastMove(view.message);
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
        if (last && last.includes(square)) cell.classList.add("last");
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
  message.textContent = failure ?? view.message;
  message.classList.toggle("error", failure !== null || PROBLEM.test(view.message));
  $("prompt").textContent = view.prompt.trim() || "Input:";
  $("info").textContent = view.info.join("\n");
  $("details").textContent = state;
  const over = GAME_OVER.test(view.prompt);
  $("move-input").disabled = busy || over;
  $("move-button").disabled = busy || over;
  document.body.dataset.busy = String(busy);
  document.body.dataset.runs = String(runs);
  document.body.dataset.over = String(over);
}

/** The squares of the move the message says was played ("Black plays knight g8f6"). */
function lastMove(message) {
  const m = / plays .*?\b([a-h][1-8])([a-h][1-8])[qrbn]?\b/.exec(message);
  return m ? [m[1], m[2]] : null;
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
  busy = true;
  failure = null;
  runId += 1;
  $("progress").hidden = false;
  $("progress-text").textContent = `rule 0 of ${ruleCount}`;
  $("progress-bar").value = 0;
  pendingInput = state + typed + "\n";
  worker.postMessage({ id: runId, state: pendingInput });
  render();
}

worker.onmessage = (event) => {
  const data = event.data;
  if (data.type === "ready") {
    ruleCount = data.rules;
    $("rule-count").textContent = `${ruleCount.toLocaleString("en")}`;
    return;
  }
  if (data.id !== runId) return;
  if (data.type === "progress") {
    $("progress-text").textContent =
      `rule ${(data.index + 1).toLocaleString("en")} of ${data.total.toLocaleString("en")}`;
    $("progress-bar").value = (data.index + 1) / data.total;
    $("progress-rule").textContent = data.pattern;
    $("progress-origin").textContent = data.origin;
  } else if (data.type === "done") {
    busy = false;
    runs += 1;
    state = data.state;
    window.regexChessLog.push({ input: pendingInput, output: state, ms: data.ms });
    $("progress").hidden = true;
    $("timing").textContent = `${ruleCount.toLocaleString("en")} rules in ${(data.ms / 1000).toFixed(2)} s`;
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
};

$("move-form").addEventListener("submit", (event) => {
  event.preventDefault();
  submit($("move-input").value.trim());
});

$("restart").addEventListener("click", () => {
  if (busy) return;
  state = startState;
  picked = null;
  render();
});

const response = await fetch("start.txt", { cache: "no-store" });
startState = await response.text();
state = startState;
render();
if (ENGINE_PROMPT.test(parse(state).prompt)) submit("");
