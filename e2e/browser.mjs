// End-to-end test of the regex-chess page: opens the served site in headless Chromium
// (playwright-core driving Debian's chromium) on a 390 px phone screen and checks that
//  - the page fits the screen (no sideways scroll);
//  - a clicked move shows on the board at once (a run that plays it alone), then the
//    engine answers; the previous move's timing is cleared; a move typed in SAN plays;
//  - the move list is SAN that chess.js (an independent library, not our rules) accepts
//    move by move, names each move as chess.js does, and leads to the board shown;
//  - the game copies as PGN that chess.js loads;
//  - "Watch the machine" replays the last answer rule by rule, stepping and playing, and
//    shows the rule, its origin, the threads alive and the change;
//  - "New game" as black makes the engine (white) move by itself;
//  - the "Engine search" select offers every variant of variants.json, the default
//    chosen; choosing each in turn loads its rules (the rule count is its program's) and
//    a short game with it (e4, Nf3, Nc3 against its replies) is judged by chess.js; the
//    engine's reply times per variant go to OUT_DIR/times.json and the log;
//  - every run in the browser produced exactly the state the native executor produces
//    from the same input with the program of the variant it ran (`regex-chess run`);
//  - opened as file://, the page says how to serve it.
// It saves a screenshot of the page to SCREENSHOT and the runs to OUT_DIR.
//
// With E2E_BENCH=N (a benchmark, not a check of speed): every variant's engine reply on
// each position of data/positions/bench.txt (after its white move), run N times in a
// worker of the page after one warm-up run, the median printed per position and variant
// and written to OUT_DIR/bench-times.json; each browser answer must equal the native one.
//
// Usage: node browser.mjs URL OUT_DIR REGEX_CHESS_BINARY SITE_DIR SCREENSHOT

import { chromium } from "playwright-core";
import { Chess } from "chess.js";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const [url, outDir, bin, siteDir, screenshot] = process.argv.slice(2);
if (!screenshot) {
  console.error("usage: node browser.mjs URL OUT_DIR REGEX_CHESS_BINARY SITE_DIR SCREENSHOT");
  process.exit(2);
}
// The rules on the page, and each one's program compiled by the CLI for the comparison.
const offered = JSON.parse(readFileSync(join(siteDir, "variants.json"), "utf8"));
const programJson = new Map();
const ruleCounts = new Map();
for (const v of offered.variants) {
  const path = join(outDir, `${v.program}.json`);
  execFileSync(bin, ["compile", "--program", v.program, "-o", path]);
  programJson.set(v.name, path);
  ruleCounts.set(v.name, JSON.parse(readFileSync(path, "utf8")).rules.length);
}
const MOVE_TIMEOUT_MS = Number(process.env.E2E_MOVE_TIMEOUT_MS ?? 15 * 60 * 1000);
const PHONE = { width: 390, height: 844 };
const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};

const profile = mkdtempSync(join(tmpdir(), "regex-chess-e2e-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  viewport: PHONE,
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

/** Waits until more runs than `before` have finished and the player is to move. */
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

const piece = (square) => page.$eval(`[data-square="${square}"]`, (el) => el.dataset.piece);
const logLength = () => page.evaluate(() => window.regexChessLog.length);
const GLYPHS = { "♔": "K", "♕": "Q", "♖": "R", "♗": "B", "♘": "N", "♙": "P",
  "♚": "k", "♛": "q", "♜": "r", "♝": "b", "♞": "n", "♟": "p" };

/** The board on the page as a FEN placement field. */
async function placement() {
  const cells = await page.$$eval("[data-square]", (els) =>
    els.map((el) => [el.dataset.square, el.dataset.piece]));
  const at = new Map(cells);
  const ranks = [];
  for (let rank = 8; rank >= 1; rank--) {
    let out = "";
    let empty = 0;
    for (const file of "abcdefgh") {
      const letter = GLYPHS[at.get(file + rank)];
      if (letter) {
        if (empty) out += empty;
        empty = 0;
        out += letter;
      } else empty += 1;
    }
    ranks.push(out + (empty ? empty : ""));
  }
  return ranks.join("/");
}

/** Replays the page's move list in chess.js: every move legal and named as chess.js
 * names it, and the board shown is chess.js's. Returns the number of moves. */
async function judgeMoveList(what) {
  const text = (await page.textContent("#moves")).trim();
  const sans = text.split(/\s+/).filter((w) => w && !/^\d+\.+$/.test(w));
  const game = new Chess();
  for (const san of sans) {
    let played = null;
    try {
      played = game.move(san);
    } catch (error) {
      check(false, `${what}: ${san} is legal for chess.js after ${game.history().join(" ")}`);
      return sans.length;
    }
    check(played.san === san, `${what}: chess.js names ${san} ${played.san}`);
  }
  check(sans.length > 0, `${what}: the move list "${text}" has moves`);
  check((await placement()) === game.fen().split(" ")[0], `${what}: the board is chess.js's after ${text}`);
  return sans.length;
}

const over = (prompt) => /^Game over/.test(prompt);

const fitsTheScreen = () =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** `regex-chess run PROGRAM` on `input`, natively. */
const runNative = (program, input) => execFileSync(bin, ["run", program, "--state", "-"], {
  input,
  encoding: "utf8",
  maxBuffer: 1 << 28,
});

/** The engine's reply on the bench positions, per variant, in a worker of the page. */
async function benchVariants(runs) {
  const suite = readFileSync(new URL("../data/positions/bench.txt", import.meta.url), "utf8")
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("#"))
    .map((l) => l.split(";").map((f) => f.trim()));
  const board = join(outDir, "board.json");
  execFileSync(bin, ["compile", "--program", "board", "-o", board]);
  const table = {};
  for (const v of offered.variants) {
    const program = programJson.get(v.name);
    // The engine to move: the board, then the white move played alone (`&`).
    const inputs = suite.map(([fen, move]) =>
      runNative(program, runNative(board, `engine: black\n${fen}\n`) + `${move}&\n`) + "\n");
    const answers = await page.evaluate(async ({ file, inputs, runs }) => {
      const worker = new Worker(new URL(`./worker.js?rules=${file}`, location.href), { type: "module" });
      let id = 0;
      const once = (state) => new Promise((resolve, reject) => {
        const mine = ++id;
        worker.onmessage = (event) => {
          const d = event.data;
          if (d.id !== mine) return;
          if (d.type === "done") resolve(d);
          if (d.type === "error") reject(new Error(d.message));
        };
        worker.postMessage({ id: mine, state });
      });
      await once(inputs[0]);
      const out = [];
      for (const input of inputs) {
        const ms = [];
        let state = "";
        for (let i = 0; i < runs; i++) {
          const d = await once(input);
          ms.push(d.ms);
          state = d.state;
        }
        out.push({ ms, state });
      }
      worker.terminate();
      return out;
    }, { file: v.file, inputs, runs });
    table[v.name] = {};
    suite.forEach(([fen, , label], i) => {
      const { ms, state } = answers[i];
      check(state === runNative(program, inputs[i]), `bench ${v.name} ${label}: the browser's answer is the native one`);
      const sorted = [...ms].sort((a, b) => a - b);
      const median = sorted[Math.floor((sorted.length - 1) / 2)];
      table[v.name][label] = Number((median / 1000).toFixed(3));
      console.log(`bench ${v.name.padEnd(8)} ${(median / 1000).toFixed(2).padStart(6)} s  ${label} (${fen})`);
    });
  }
  writeFileSync(join(outDir, "bench-times.json"), JSON.stringify(table, null, 1));
}

let outcome;
try {
  await page.goto(url);
  await page.waitForSelector('[data-square="e2"]', { timeout: 60_000 });
  await page.waitForFunction(() => document.body.dataset.busy === "false");
  check((await piece("e2")) === "♙", "the start board has a white pawn on e2");
  check(await fitsTheScreen(), "the page fits a 390 px screen (no sideways scroll)");
  check(/Type a move/.test(await page.textContent("#message")), "the first screen says how to type moves");

  // Move 1: click the pawn, then its destination. The move shows alone first.
  let before = await logLength();
  await page.click('[data-square="e2"]');
  await page.click('[data-square="e4"]');
  await waitForPlayer(before);
  const log = await page.evaluate(() => window.regexChessLog);
  const mine = log[before];
  check(/e2e4&\n$/.test(mine.input) && /Engine to move, press Enter: $/.test(mine.output) &&
    /\nMoves: 1\. e4\n/.test(mine.output), "the player's move is played alone first, then the engine's");
  check((await piece("e4")) === "♙" && (await piece("e2")) === "·", "e2e4 (clicked) moved the pawn");
  const progress = await page.textContent("#progress-text");
  check(/^rule [\d,]+ of [\d,]+$/.test(progress), `the progress display reported "${progress}"`);
  await judgeMoveList("after e4");

  // Move 2: typed in SAN. The previous move's timing is cleared at once.
  before = await logLength();
  const shownBefore = await page.textContent("#timing");
  await page.evaluate(() => {
    const timing = document.getElementById("timing");
    window.timingSeen = [];
    new MutationObserver(() => window.timingSeen.push(timing.textContent))
      .observe(timing, { childList: true, characterData: true, subtree: true });
  });
  await page.fill("#move-input", "Nf3");
  await page.press("#move-input", "Enter");
  await waitForPlayer(before);
  const seen = await page.evaluate(() => window.timingSeen);
  check(shownBefore !== "" && seen[0] === "" && seen[seen.length - 1] !== "",
    `the previous move's timing is cleared when the next starts: ${JSON.stringify([shownBefore, ...seen])}`);
  check((await piece("f3")) === "♘" && (await piece("g1")) === "·", "Nf3 (typed SAN) moved the knight");
  const message = await page.textContent("#message");
  check(/ plays /.test(message) && !/illegal|malformed/i.test(message), `the message is "${message}"`);
  const played = await judgeMoveList("after Nf3");
  check(played === 4, "four moves in the list");
  check(await fitsTheScreen(), "the page still fits after two moves");

  // PGN.
  await page.click("#copy-pgn");
  const pgn = await page.inputValue("#pgn");
  const fromPgn = new Chess();
  try {
    fromPgn.loadPgn(pgn);
    check(fromPgn.history().length === played, `chess.js loads the PGN with ${played} moves`);
  } catch (error) {
    check(false, `chess.js loads the PGN: ${error}\n${pgn}`);
  }

  // Watch the machine: step three times, then play at the top speed for a while.
  await page.click("#watch-start");
  await page.waitForSelector("#watch-view:not([hidden])");
  await page.waitForFunction(() => !document.getElementById("watch-step").disabled);
  for (let i = 0; i < 3; i++) {
    await page.click("#watch-step");
    await page.waitForFunction((n) => Number(document.body.dataset.watchSteps) >= n, i + 1);
  }
  const index = await page.textContent("#watch-index");
  check(/^rule [\d,]+ of [\d,]+$/.test(index), `the replay names the rule: "${index}"`);
  check((await page.textContent("#watch-origin")).length > 0, "the replay names the rule's origin");
  check(/alive/.test(await page.textContent("#watch-threads")), "the replay counts the threads alive");
  check((await page.$$("#watch-change del, #watch-change ins")).length === 2,
    "the replay highlights the part of the state the rule changed");
  await page.selectOption("#watch-speed", "250");
  await page.click("#watch-play");
  await page.waitForFunction(() => Number(document.body.dataset.watchSteps) >= 40, null, { timeout: 60_000 });
  await page.click("#watch-play");
  const later = await page.textContent("#watch-index");
  check(later !== index, `playing the replay moves on: "${later}"`);

  // The screenshot for the README, on a desktop width.
  await page.setViewportSize({ width: 1000, height: 900 });
  await page.screenshot({ path: screenshot, fullPage: true });
  await page.setViewportSize(PHONE);

  // New game as black: the engine (white) moves by itself.
  before = await logLength();
  await page.selectOption("#side", "black");
  await page.click("#restart");
  await waitForPlayer(before);
  const first = (await page.textContent("#moves")).trim();
  check(/^1\. \S+$/.test(first), `the engine opened as white: "${first}"`);
  await judgeMoveList("new game as black");
  check(await fitsTheScreen(), "the page fits with the board flipped");
  await page.screenshot({ path: join(outDir, "phone.png"), fullPage: true });

  // The engine's search: every variant offered, the default chosen; each in turn plays.
  const options = await page.$$eval("#search option", (els) => els.map((el) => el.value));
  check(JSON.stringify(options) === JSON.stringify(offered.variants.map((v) => v.name)),
    `the search select offers ${options.join(", ")}`);
  check(await page.isVisible("#search"), "the search select is shown");
  check((await page.inputValue("#search")) === offered.default,
    `the search select starts on the default, ${offered.default}`);
  check(Number((await page.textContent("#rule-count")).replace(/,/g, "")) === ruleCounts.get(offered.default),
    `the page counts the rules of ${offered.default}`);
  for (const v of offered.variants) {
    await page.selectOption("#search", v.name);
    await page.waitForFunction((name) => document.body.dataset.search === name &&
      document.body.dataset.ready === "true", v.name, { timeout: 60_000 });
    const count = Number((await page.textContent("#rule-count")).replace(/,/g, ""));
    check(count === ruleCounts.get(v.name), `${v.name}: the page runs its ${count} rules`);
    await page.selectOption("#side", "white");
    await page.click("#restart");
    for (const typed of ["e4", "Nf3", "Nc3"]) {
      before = await logLength();
      await page.fill("#move-input", typed);
      await page.press("#move-input", "Enter");
      await waitForPlayer(before);
      const runs = (await page.evaluate(() => window.regexChessLog)).slice(before);
      check(runs.length > 0 && runs.every((run) => run.search === v.name),
        `${v.name}: ${typed} and the reply ran its rules`);
      if (over(await page.textContent("#prompt"))) break;
    }
    await judgeMoveList(`a game with ${v.name}`);
  }

  outcome = await page.evaluate(() => window.regexChessLog);

  if (process.env.E2E_BENCH) await benchVariants(Number(process.env.E2E_BENCH) || 1);

  // Opened as a file, the page says how to serve it.
  const filePage = await context.newPage();
  await filePage.goto("file://" + resolve(siteDir, "index.html"));
  check(await filePage.isVisible("#file-note"), "opened as file://, the page says how to serve it");
  check(/regex-chess serve/.test(await filePage.textContent("#file-note")), "the note names the command");
  await filePage.close();
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}

writeFileSync(join(outDir, "runs.json"), JSON.stringify(outcome, null, 1));
check(pageErrors.length === 0, `no errors on the page${pageErrors.length ? ": " + pageErrors.join("; ") : ""}`);

// The engine's replies (runs without the player's `&`) per variant, in seconds.
const times = {};
for (const run of outcome) {
  if (/&\n$/.test(run.input)) continue;
  (times[run.search] ??= []).push(Number((run.ms / 1000).toFixed(3)));
}
writeFileSync(join(outDir, "times.json"), JSON.stringify(times, null, 1));
for (const [name, list] of Object.entries(times)) {
  const sorted = [...list].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  console.log(`time  ${name}: engine replies ${list.join(", ")} s; median ${median} s, max ${sorted[sorted.length - 1]} s`);
}

// Every browser run against the native executor, with the program of its variant.
outcome.forEach((run, i) => {
  const native = runNative(programJson.get(run.search), run.input);
  check(native === run.output,
    `run ${i} (${run.search}, ${(run.ms / 1000).toFixed(2)} s in the browser) equals the native executor's`);
});

if (failures.length) {
  console.error(`e2e: ${failures.length} check(s) failed`);
  process.exit(1);
}
console.log(`e2e: all checks passed; screenshot in ${screenshot}`);
