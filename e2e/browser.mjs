// End-to-end test of the regex-chess page: opens the served site in headless Chromium
// (playwright-core driving Debian's chromium) on a 390 px phone screen and checks that
//  - the page offers two engines, the fast executor in WebAssembly (the default) and the
//    browser's RegExp, and fits the screen (no sideways scroll);
//  - a clicked move shows on the board at once (a run that plays it alone), then the
//    engine answers (the time from opening the page to that reply is recorded); while
//    the engine thinks, the progress line counts the rules and the last reply's time
//    stays shown; a move typed in SAN plays;
//  - the move list is SAN that chess.js (an independent library, not our rules) accepts
//    move by move, names each move as chess.js does, and leads to the board shown;
//  - the game copies as PGN that chess.js loads;
//  - "Watch the machine" replays the last answer rule by rule, stepping and playing, and
//    shows the rule, its origin, the threads alive and the change, with either engine;
//  - "New game" as black makes the engine (white) move by itself;
//  - the "Engine search" select offers every variant of variants.json, the default
//    chosen; with each engine, choosing each variant in turn loads its rules (the rule
//    count is its program's) and a short game with it (e4, Nf3, Nc3 against its replies)
//    is judged by chess.js; the engine's reply times per variant and engine go to
//    OUT_DIR/times.json and the log;
//  - the two engines' games are the same: every state after every move, byte for byte;
//    the progress line updates a few times a second at most;
//  - every run in the browser produced exactly the state the native executor produces
//    from the same input with the program of the variant it ran (`regex-chess run`);
//  - opened as file://, the page says how to serve it;
//  - a user's program that doubles its state forty times (the site at growth/, written by
//    `site --file`): the page's default engine stops it at the state limit and the page
//    shows the error, naming the rule and the limit.
// It saves a screenshot of the page to SCREENSHOT, one on the phone screen while the
// engine thinks to PHONE_SCREENSHOT, and the runs to OUT_DIR.
//
// With E2E_BENCH=N (a benchmark, not a check of speed): with each engine, every variant's
// engine reply on each position of data/positions/bench.txt (after its white move), run
// N times in a worker of the page after one warm-up run, the median printed per position,
// variant and engine and written to OUT_DIR/bench-times.json; each browser answer must
// equal the native one. E2E_BENCH_VARIANTS=a,b times only those variants. E2E_PLANT=1 changes one state of the RegExp game before the
// comparison of the engines' games, which must then fail (a check of the check).
//
// Usage: node browser.mjs URL OUT_DIR REGEX_CHESS_BINARY SITE_DIR SCREENSHOT [PHONE_SCREENSHOT]

import { chromium } from "playwright-core";
import { Chess } from "chess.js";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const [url, outDir, bin, siteDir, screenshot, phoneShot] = process.argv.slice(2);
if (!screenshot) {
  console.error("usage: node browser.mjs URL OUT_DIR REGEX_CHESS_BINARY SITE_DIR SCREENSHOT [PHONE_SCREENSHOT]");
  process.exit(2);
}
const thinkingShot = phoneShot ?? join(outDir, "phone-thinking.png");
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
// The engines the page offers when the site has the WebAssembly module, default first.
const ENGINES = offered.wasm ? ["wasm", "regexp"] : ["regexp"];
const LOAD_TIMEOUT_MS = 120_000;
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
// For the screenshot of the engine thinking: while `window.e2eHold` is set, the page
// gets its workers' messages up to the first progress report for which
// `e2eHold.when(report)` is true, and the rest only when `window.e2eRelease()` is called (nothing else of the
// page changes).
await context.addInitScript(() => {
  const Native = window.Worker;
  window.e2eHold = null;
  window.e2eRelease = () => {
    const held = window.e2eHold?.queue ?? [];
    window.e2eHold = null;
    held.forEach((deliver) => deliver());
  };
  window.Worker = class extends Native {
    set onmessage(handler) {
      super.onmessage = (event) => {
        const hold = window.e2eHold;
        if (hold?.progressed) return hold.queue.push(() => handler(event));
        if (hold && event.data.type === "progress" && hold.when(event.data)) hold.progressed = true;
        return handler(event);
      };
    }

    get onmessage() {
      return super.onmessage;
    }
  };
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

/** The worker's address for `variant` run by `engine`, as the page builds it. */
const workerUrl = (variant, engine) => {
  const params = new URLSearchParams({ rules: variant.file, engine, program: variant.program });
  if (offered.wasm) params.set("wasm", offered.wasm);
  return `./worker.js?${params}`;
};

/** The engine's reply on the bench positions, per engine and variant, in a worker of the
 * page. */
async function benchVariants(runs) {
  const suite = readFileSync(new URL("../data/positions/bench.txt", import.meta.url), "utf8")
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("#"))
    .map((l) => l.split(";").map((f) => f.trim()));
  const board = join(outDir, "board.json");
  execFileSync(bin, ["compile", "--program", "board", "-o", board]);
  const table = {};
  const only = process.env.E2E_BENCH_VARIANTS?.split(",").filter((name) => name);
  for (const v of offered.variants.filter((v) => !only || only.includes(v.name))) {
    const program = programJson.get(v.name);
    // The engine to move: the board, then the white move played alone (`&`).
    const inputs = suite.map(([fen, move]) =>
      runNative(program, runNative(board, `engine: black\n${fen}\n`) + `${move}&\n`) + "\n");
    const natives = inputs.map((input) => runNative(program, input));
    for (const engine of ENGINES) {
      const answers = await page.evaluate(async ({ address, inputs, runs }) => {
        const worker = new Worker(new URL(address, location.href), { type: "module" });
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
      }, { address: workerUrl(v, engine), inputs, runs });
      const times = (table[engine] ??= {})[v.name] = {};
      suite.forEach(([fen, , label], i) => {
        const { ms, state } = answers[i];
        check(state === natives[i], `bench ${engine} ${v.name} ${label}: the browser's answer is the native one`);
        times[label] = Number((median(ms) / 1000).toFixed(3));
        console.log(`bench ${engine.padEnd(6)} ${v.name.padEnd(8)} ${(median(ms) / 1000).toFixed(2).padStart(6)} s  ${label} (${fen})`);
      });
      const all = Object.values(times);
      console.log(`bench ${engine.padEnd(6)} ${v.name.padEnd(8)} median ${median(all).toFixed(2)} s, slowest ${Math.max(...all).toFixed(2)} s`);
    }
    if (table.wasm && table.regexp) {
      const [slow, fast] = [table.regexp[v.name], table.wasm[v.name]];
      const ratio = median(Object.values(slow)) / median(Object.values(fast));
      const logs = Object.keys(fast).map((label) => Math.log(slow[label] / fast[label]));
      const geomean = Math.exp(logs.reduce((a, b) => a + b, 0) / logs.length);
      console.log(`bench ${v.name}: RegExp / WebAssembly: ${ratio.toFixed(1)} (the medians), ` +
        `${geomean.toFixed(1)} (geometric mean of the positions' ratios)`);
    }
  }
  writeFileSync(join(outDir, "bench-times.json"), JSON.stringify(table, null, 1));
}

/** The median of a list of numbers (of an even count, the mean of the middle two). */
function median(list) {
  const sorted = [...list].sort((a, b) => a - b);
  const half = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2;
}

/** Chooses `name` in the select `id` and waits for the worker to be ready with it. */
async function choose(id, name, key) {
  await page.selectOption(`#${id}`, name);
  await page.waitForFunction(([key, name]) => document.body.dataset[key] === name &&
    document.body.dataset.ready === "true", [key, name], { timeout: LOAD_TIMEOUT_MS });
}

/** Plays `moves` typed in SAN from a new game as white, each against the engine's reply
 * (fewer when the game ends): the runs, in order. */
async function playTyped(moves) {
  await page.selectOption("#side", "white");
  await page.click("#restart");
  const start = await logLength();
  for (const typed of moves) {
    const before = await logLength();
    await page.fill("#move-input", typed);
    await page.press("#move-input", "Enter");
    await waitForPlayer(before);
    if (over(await page.textContent("#prompt"))) break;
  }
  return (await page.evaluate(() => window.regexChessLog)).slice(start);
}

/** Steps three times through a replay of the last answer, then plays it at the top speed
 * until 40 steps; checks what each shows. */
async function watchTheMachine(what) {
  await page.click("#watch-start");
  await page.waitForSelector("#watch-view:not([hidden])");
  await page.waitForFunction(() => !document.getElementById("watch-step").disabled);
  for (let i = 0; i < 3; i++) {
    await page.click("#watch-step");
    await page.waitForFunction((n) => Number(document.body.dataset.watchSteps) >= n, i + 1);
  }
  const index = await page.textContent("#watch-index");
  check(/^rule [\d,]+ of [\d,]+$/.test(index), `${what}: the replay names the rule: "${index}"`);
  check((await page.textContent("#watch-origin")).length > 0, `${what}: the replay names the rule's origin`);
  check((await page.textContent("#watch-rule")).length > 0, `${what}: the replay shows the rule's pattern`);
  check(/alive/.test(await page.textContent("#watch-threads")), `${what}: the replay counts the threads alive`);
  check((await page.$$("#watch-change del, #watch-change ins")).length === 2,
    `${what}: the replay highlights the part of the state the rule changed`);
  await page.selectOption("#watch-speed", "250");
  await page.click("#watch-play");
  await page.waitForFunction(() => Number(document.body.dataset.watchSteps) >= 40, null, { timeout: 60_000 });
  await page.click("#watch-play");
  const later = await page.textContent("#watch-index");
  check(later !== index, `${what}: playing the replay moves on: "${later}"`);
}

/** The site at growth/ (run.sh writes it with `site --file`): a program that doubles
 * every line of its state forty times. The page's default engine must stop it at its
 * state limit (256 MiB in the module, crates/wasm) and show the error with the rule. */
async function stateLimitInThePage() {
  const growth = await context.newPage();
  try {
    await growth.goto(new URL("growth/", url).href);
    await growth.waitForFunction(() => document.body.dataset.ready === "true", null,
      { timeout: LOAD_TIMEOUT_MS });
    await growth.fill("#move-input", "go");
    await growth.press("#move-input", "Enter");
    await growth.waitForFunction(() => document.getElementById("message").classList.contains("error"),
      null, { timeout: MOVE_TIMEOUT_MS });
    const shown = await growth.textContent("#message");
    check(/rule \d+ \(.*\) would grow the state to \d+ bytes, past the state limit of 268435456 bytes/
      .test(shown), `the growing program: the page shows the state-limit error: "${shown}"`);
  } finally {
    await growth.close();
  }
}

let outcome;
// The time from opening the page to the engine's first reply, in ms.
let firstReplyMs = null;
try {
  // The first reply: the page opened, e2e4 clicked as soon as the board shows; the
  // module's download and compilation are part of the time.
  const opened = Date.now();
  await page.goto(url);
  await page.waitForSelector('[data-square="e2"]', { timeout: 60_000 });
  let before = await logLength();
  await page.click('[data-square="e2"]');
  await page.click('[data-square="e4"]');
  await waitForPlayer(before);
  firstReplyMs = Date.now() - opened;
  console.log(`time  first reply after opening the page (${ENGINES[0]}): ${(firstReplyMs / 1000).toFixed(2)} s`);
  check((await page.textContent("#engine-words")).length > 0, "the tagline names the engine");
  const engineOptions = await page.$$eval("#engine option", (els) => els.map((el) => el.value));
  check(JSON.stringify(engineOptions) === JSON.stringify(offered.wasm ? ENGINES : []) &&
    (await page.isVisible("#engine")) === Boolean(offered.wasm),
  `the engine select offers ${engineOptions.join(", ") || "nothing (no module)"}`);
  check(!offered.wasm || (await page.inputValue("#engine")) === "wasm",
    "the engine select starts on the fast executor in WebAssembly");
  check(await fitsTheScreen(), "the page fits a 390 px screen (no sideways scroll)");

  // Move 1 (above): clicked. The move showed alone first.
  const log = await page.evaluate(() => window.regexChessLog);
  const mine = log[before];
  check(/e2e4&\n$/.test(mine.input) && /Engine to move, press Enter: $/.test(mine.output) &&
    /\nMoves: 1\. e4\n/.test(mine.output) && mine.engine === ENGINES[0],
  "the player's move is played alone first, then the engine's");
  check((await piece("e4")) === "♙" && (await piece("e2")) === "·", "e2e4 (clicked) moved the pawn");
  const progress = await page.textContent("#progress-text");
  check(/^rule [\d,]+ of [\d,]+ · [\d.]+ s$/.test(progress), `the progress display reported "${progress}"`);
  await judgeMoveList("after e4");

  // Move 2: typed in SAN. While the engine thinks, the progress line counts the rules and
  // the last reply's time stays shown.
  before = await logLength();
  const shownBefore = await page.textContent("#timing");
  const progressFrom = await logLength();
  await page.evaluate(() => {
    window.progressSeen = [];
    new MutationObserver(() => window.progressSeen.push({
      progress: document.getElementById("progress-text").textContent,
      timing: document.getElementById("timing").textContent,
      reply: /press Enter/i.test(document.getElementById("prompt").textContent),
    })).observe(document.getElementById("progress-text"), { childList: true, characterData: true, subtree: true });
  });
  await page.fill("#move-input", "Nf3");
  await page.press("#move-input", "Enter");
  await waitForPlayer(before);
  const seen = await page.evaluate(() => window.progressSeen);
  const thinking = seen.filter((s) => s.reply && /^rule [1-9]/.test(s.progress));
  check(/^Last reply: [\d.]+ s, [\d,]+ rules/.test(shownBefore) && thinking.length > 0 &&
    thinking.every((s) => s.timing === shownBefore),
  `while the engine thinks, the progress line counts and the last reply's time stays: ${JSON.stringify([shownBefore, ...thinking.slice(0, 3)])}`);
  check((await page.textContent("#timing")) !== shownBefore || seen.length > 0,
    `the reply's time is shown: "${await page.textContent("#timing")}"`);
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

  // Watch the machine, with the default engine.
  await watchTheMachine(`watching (${ENGINES[0]})`);

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

  // The engine's search: every variant offered, the default chosen; with each engine,
  // each variant in turn plays the same short game.
  const options = await page.$$eval("#search option", (els) => els.map((el) => el.value));
  check(JSON.stringify(options) === JSON.stringify(offered.variants.map((v) => v.name)),
    `the search select offers ${options.join(", ")}`);
  check(await page.isVisible("#search"), "the search select is shown");
  check((await page.inputValue("#search")) === offered.default,
    `the search select starts on the default, ${offered.default}`);
  check(Number((await page.textContent("#rule-count")).replace(/,/g, "")) === ruleCounts.get(offered.default),
    `the page counts the rules of ${offered.default}`);
  const games = {};
  for (const engine of ENGINES) {
    if (offered.wasm) await choose("engine", engine, "engine");
    games[engine] = {};
    for (const v of offered.variants) {
      await choose("search", v.name, "search");
      const count = Number((await page.textContent("#rule-count")).replace(/,/g, ""));
      check(count === ruleCounts.get(v.name), `${engine} ${v.name}: the page runs its ${count} rules`);
      const runs = await playTyped(["e4", "Nf3", "Nc3"]);
      check(runs.length > 0 && runs.every((run) => run.search === v.name && run.engine === engine),
        `${engine} ${v.name}: the moves and the replies ran its rules with ${engine}`);
      games[engine][v.name] = runs;
      await judgeMoveList(`a game with ${v.name} (${engine})`);
    }
    if (engine !== ENGINES[0]) await watchTheMachine(`watching (${engine})`);
  }

  // The progress line, at most a few updates a second (every 250 ms, and the last rule).
  const updates = await page.evaluate(() => window.progressSeen.length);
  const runsMs = (await page.evaluate(() => window.regexChessLog)).slice(progressFrom)
    .reduce((t, r) => t + r.ms, 0);
  const runCount = (await logLength()) - progressFrom;
  check(updates <= runsMs / 250 + 2 * runCount,
    `the progress line updated ${updates} times in ${runCount} runs of ${(runsMs / 1000).toFixed(1)} s in all`);

  // The phone screenshot for the README: the default engine and search thinking about a
  // reply, the progress line part way, the last reply's time and the engine choice on the
  // screen. Replies shorter than a progress interval report only their last rule: then
  // the next move is tried, and the last try takes that report.
  if (offered.wasm) await choose("engine", ENGINES[0], "engine");
  await choose("search", offered.default, "search");
  await playTyped(["d4"]);
  let held = false;
  const tries = ["c4", "Nc3", "e3", "Nf3", "Bd3"];
  for (const [k, typed] of tries.entries()) {
    before = await logLength();
    // Held at the reply's first progress report short of its last rule (on the last
    // try, at its first report).
    await page.evaluate((partWay) => {
      const reply = (d) => (!partWay || d.index + 1 < d.total) &&
        /press Enter/i.test(document.getElementById("prompt").textContent);
      window.e2eHold = { queue: [], progressed: false, when: reply };
    }, k + 1 < tries.length);
    await page.fill("#move-input", typed);
    await page.press("#move-input", "Enter");
    // Held, or the player to move again (after the reply, or at once after a move the
    // rules refused).
    await page.waitForFunction((n) => window.e2eHold?.progressed ||
      (window.regexChessLog.length > n && document.body.dataset.busy === "false" &&
        !/press Enter/i.test(document.getElementById("prompt").textContent)),
    before, { timeout: MOVE_TIMEOUT_MS });
    held = await page.evaluate(() => window.e2eHold.progressed);
    if (held) {
      check(await page.isVisible("#progress-text") && await page.isVisible("#engine") &&
        /^Last reply/.test(await page.textContent("#timing")),
      `the engine thinking: "${await page.textContent("#progress-text")}", ` +
        `"${await page.textContent("#timing")}", the engine choice shown`);
      const bottom = await page.$eval("#search", (el) => el.getBoundingClientRect().bottom + window.scrollY);
      await page.screenshot({ path: thinkingShot, clip: { x: 0, y: 0, width: PHONE.width, height: bottom + 16 }, fullPage: true });
    }
    await page.evaluate(() => window.e2eRelease());
    await waitForPlayer(before);
    if (held || over(await page.textContent("#prompt"))) break;
  }
  check(held, "a reply long enough to show its progress part way, for the screenshot");

  // The same games, state for state, with both engines.
  if (games.wasm && games.regexp) {
    if (process.env.E2E_PLANT) {
      const run = games.regexp[offered.default][1];
      run.output = run.output.replace("Moves:", "Moves: ");
      console.log(`E2E_PLANT: changed the state after run 1 of the RegExp game with ${offered.default}`);
    }
    for (const v of offered.variants) {
      const a = games.wasm[v.name].map((r) => [r.input, r.output]);
      const b = games.regexp[v.name].map((r) => [r.input, r.output]);
      const differ = a.findIndex((pair, i) => b[i] === undefined || pair[0] !== b[i][0] || pair[1] !== b[i][1]);
      check(a.length === b.length && differ === -1,
        `${v.name}: the two engines' games have the same ${a.length} states, byte for byte` +
        (differ === -1 ? "" : ` (they differ after run ${differ})`));
    }
  }
  outcome = await page.evaluate(() => window.regexChessLog);

  if (process.env.E2E_BENCH) await benchVariants(Number(process.env.E2E_BENCH) || 1);

  if (offered.wasm) await stateLimitInThePage();

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

// The engine's replies per engine and variant, in seconds, and the first reply's time.
const times = { firstReply: firstReplyMs / 1000 };
for (const run of outcome) {
  if (!run.reply) continue;
  (times[`${run.engine} ${run.search}`] ??= []).push(Number((run.ms / 1000).toFixed(3)));
}
writeFileSync(join(outDir, "times.json"), JSON.stringify(times, null, 1));
for (const [name, list] of Object.entries(times)) {
  if (!Array.isArray(list)) continue;
  console.log(`time  ${name}: engine replies ${list.join(", ")} s; median ${median(list)} s, max ${Math.max(...list)} s`);
}

// Every browser run against the native executor, with the program of its variant (each
// input once: the engines' games share theirs).
const natives = new Map();
outcome.forEach((run, i) => {
  const key = `${run.search}\n${run.input}`;
  if (!natives.has(key)) natives.set(key, runNative(programJson.get(run.search), run.input));
  check(natives.get(key) === run.output,
    `run ${i} (${run.engine} ${run.search}, ${(run.ms / 1000).toFixed(2)} s in the browser) equals the native executor's`);
});

if (failures.length) {
  console.error(`e2e: ${failures.length} check(s) failed`);
  process.exit(1);
}
console.log(`e2e: all checks passed; screenshot in ${screenshot}`);
