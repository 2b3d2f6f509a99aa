// End-to-end test of the regex-chess page: opens the served site in headless Chromium
// (playwright-core driving Debian's chromium), plays two moves (one by clicking squares,
// one typed), and checks that
//  - the board updates (the moved pieces stand on their new squares),
//  - the progress display reported "rule i of N",
//  - every run in the browser produced exactly the state the native executor produces
//    from the same input (`regex-chess run`),
//  - with the real `play` program, the player's moves and the engine's replies are legal
//    (`regex-chess legal` on the position before each); with the toy program, the toy
//    mirrored the move.
// It saves a screenshot and the runs to OUT_DIR.
//
// Usage: node browser.mjs URL OUT_DIR MODE(play|toy) REGEX_CHESS_BINARY PROGRAM_JSON

import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [url, outDir, mode, bin, programJson] = process.argv.slice(2);
if (!programJson || !["play", "toy"].includes(mode)) {
  console.error("usage: node browser.mjs URL OUT_DIR play|toy REGEX_CHESS_BINARY PROGRAM_JSON");
  process.exit(2);
}
const MOVE_TIMEOUT_MS = Number(process.env.E2E_MOVE_TIMEOUT_MS ?? 15 * 60 * 1000);
const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};

const profile = mkdtempSync(join(tmpdir(), "regex-chess-e2e-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  viewport: { width: 1000, height: 760 },
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
const page = context.pages()[0] ?? (await context.newPage());
const pageErrors = [];
page.on("pageerror", (e) => pageErrors.push(String(e)));
page.on("console", (m) => {
  if (m.type() === "error") pageErrors.push(m.text());
});

/** Waits until `runs` more runs have finished and the player is to move again. */
async function waitForPlayer(before) {
  await page.waitForFunction(
    (n) =>
      window.regexChessLog.length > n &&
      document.body.dataset.busy === "false" &&
      !/press Enter/i.test(document.getElementById("prompt").textContent),
    before,
    { timeout: MOVE_TIMEOUT_MS, polling: 200 },
  );
}

const piece = (square) =>
  page.$eval(`[data-square="${square}"]`, (el) => el.dataset.piece);
const logLength = () => page.evaluate(() => window.regexChessLog.length);

let outcome;
try {
  await page.goto(url);
  await page.waitForSelector('[data-square="e2"]', { timeout: 60_000 });
  await page.waitForFunction(() => document.body.dataset.busy === "false");
  check((await piece("e2")) === "♙", "the start board has a white pawn on e2");

  // Move 1: click the pawn, then its destination.
  let before = await logLength();
  await page.click('[data-square="e2"]');
  await page.click('[data-square="e4"]');
  await waitForPlayer(before);
  check((await piece("e4")) === "♙" && (await piece("e2")) === "·", "e2e4 (clicked) moved the pawn");
  if (mode === "toy") check((await piece("e5")) === "♟", "the toy answered e7e5");
  const progress = await page.textContent("#progress-text");
  check(/^rule [\d,]+ of [\d,]+$/.test(progress), `the progress display reported "${progress}"`);

  // Move 2: typed.
  before = await logLength();
  await page.fill("#move-input", "g1f3");
  await page.press("#move-input", "Enter");
  await waitForPlayer(before);
  check((await piece("f3")) === "♘" && (await piece("g1")) === "·", "g1f3 (typed) moved the knight");
  if (mode === "toy") check((await piece("f6")) === "♞", "the toy answered g8f6");
  const message = await page.textContent("#message");
  check(!/illegal|not a move/i.test(message), `the message is "${message}"`);

  await page.screenshot({ path: join(outDir, "screenshot.png"), fullPage: true });
  outcome = await page.evaluate(() => window.regexChessLog);
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}

writeFileSync(join(outDir, "runs.json"), JSON.stringify(outcome, null, 1));
check(pageErrors.length === 0, `no errors on the page${pageErrors.length ? ": " + pageErrors.join("; ") : ""}`);

// Every browser run against the native executor.
outcome.forEach((run, i) => {
  const native = execFileSync(bin, ["run", programJson, "--state", "-"], {
    input: run.input,
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  check(native === run.output, `run ${i} (${(run.ms / 1000).toFixed(2)} s in the browser) equals the native executor's`);
});

// The engine's replies must be legal. A run's input is the board and the typed line; the
// player's move is checked against `regex-chess legal` on that position, applied here, and
// the engine's reply (named in the output's message) against `legal` on the result. (With
// a play program that stops at "Engine to move, press Enter", the typed line is empty and
// the reply is judged on the input's position.)
if (mode === "play") {
  const legalMoves = (fen) =>
    execFileSync(bin, ["legal", "--fen", fen], { encoding: "utf8" }).split("\n").filter(Boolean);
  for (const run of outcome) {
    const lines = run.input.split("\n");
    const typed = lines[lines.length - 2].replace(/^.*?: /, "").trim();
    let fen = fenOf(run.input);
    if (typed !== "") {
      check(legalMoves(fen).includes(typed), `the player's ${typed} is legal in ${fen}`);
      fen = applyUci(fen, typed);
    }
    const said = run.output.split("\n").find((l) => / plays /.test(l)) ?? "";
    const reply = / ([a-h][1-8][a-h][1-8][qrbn]?)\b/.exec(said)?.[1];
    check(reply !== undefined && legalMoves(fen).includes(reply), `the engine's reply "${said}" is legal in ${fen}`);
  }
}

/** The FEN after a legal UCI move (castling, en passant, promotion, rights, clocks). */
function applyUci(fen, uci) {
  const [placement, side, castling, , half, full] = fen.split(" ");
  const board = placement.split("/").map((rank) =>
    [...rank].flatMap((c) => (/\d/.test(c) ? Array(Number(c)).fill(".") : [c])));
  const at = (sq) => [8 - Number(sq[1]), sq.charCodeAt(0) - 97];
  const [fr, ff] = at(uci.slice(0, 2));
  const [tr, tf] = at(uci.slice(2, 4));
  const piece = board[fr][ff];
  const captured = board[tr][tf];
  const pawn = piece.toLowerCase() === "p";
  board[fr][ff] = ".";
  board[tr][tf] = uci[4] ? (side === "w" ? uci[4].toUpperCase() : uci[4]) : piece;
  if (pawn && ff !== tf && captured === ".") board[fr][tf] = "."; // en passant
  if (piece.toLowerCase() === "k" && Math.abs(tf - ff) === 2) {
    const [rookFrom, rookTo] = tf > ff ? [7, 5] : [0, 3];
    board[fr][rookTo] = board[fr][rookFrom];
    board[fr][rookFrom] = ".";
  }
  const gone = new Set([uci.slice(0, 2), uci.slice(2, 4)]);
  const rights = [...castling].filter((r) =>
    r !== "-" && !({ K: ["e1", "h1"], Q: ["e1", "a1"], k: ["e8", "h8"], q: ["e8", "a8"] })[r].some((sq) => gone.has(sq)));
  const ep = pawn && Math.abs(tr - fr) === 2 ? uci[0] + (side === "w" ? "3" : "6") : "-";
  const placementAfter = board
    .map((rank) => rank.join("").replace(/\.+/g, (dots) => String(dots.length)))
    .join("/");
  return [placementAfter, side === "w" ? "b" : "w", rights.join("") || "-", ep,
    pawn || captured !== "." ? 0 : Number(half) + 1, side === "b" ? Number(full) + 1 : full].join(" ");
}

/** The FEN of a pretty board text. */
function fenOf(text) {
  const glyphs = { "♔": "K", "♕": "Q", "♖": "R", "♗": "B", "♘": "N", "♙": "P",
    "♚": "k", "♛": "q", "♜": "r", "♝": "b", "♞": "n", "♟": "p" };
  const lines = text.split("\n");
  const ranks = [];
  for (const line of lines) {
    const m = /^[1-8] (.*)$/u.exec(line);
    if (!m) continue;
    let out = "";
    let empty = 0;
    for (const g of m[1].split(" ")) {
      if (glyphs[g]) {
        if (empty) out += empty;
        empty = 0;
        out += glyphs[g];
      } else empty += 1;
    }
    ranks.push(out + (empty ? empty : ""));
  }
  const field = (name) => {
    const line = lines.find((l) => l.startsWith(name + ": "));
    if (!line) throw new Error(`no "${name}" line in the state`);
    return line.slice(name.length + 2).trim();
  };
  const side = field("Side to move") === "white" ? "w" : "b";
  return [ranks.join("/"), side, field("Castling") || "-", field("En passant") || "-",
    field("Halfmove clock"), field("Move number")].join(" ");
}

if (failures.length) {
  console.error(`e2e: ${failures.length} check(s) failed`);
  process.exit(1);
}
console.log(`e2e: all checks passed; screenshot in ${join(outDir, "screenshot.png")}`);
