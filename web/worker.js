// regex-chess: runs the exported rules in a Web Worker, so that the page stays
// responsive. The rules module is `rules.js`, or the one the worker's address names
// (`worker.js?rules=rules-2ply.js`: a search variant's, listed in variants.json). A run
// reports its progress at most every 50 ms. A replay applies the rules of a run again one
// step at a time, on request, and describes each step: the rule, its origin, the threads
// alive and the part of the state it changed.

// Only a rules module of the site itself: `rules.js` or `rules-NAME.js`.
const RULES_FILE = /^rules(-[A-Za-z0-9_.-]+)?\.js$/;
const asked = new URL(self.location.href).searchParams.get("rules") ?? "rules.js";
const file = RULES_FILE.test(asked) && !asked.includes("..") ? asked : "rules.js";
// Messages that arrive while the module loads wait for it, in order.
const loading = import(`./${file}`);

const THROTTLE_MS = 50;
const CONTEXT = 120;
const CLIP = 400;

let replay = null;

/** Active threads (`%%` heads) and all threads (any `%` head) in a state. */
function threads(state) {
  let active = 0;
  let all = 0;
  for (let i = state.indexOf("%"); i !== -1; i = state.indexOf("%", i + 1)) {
    if (i !== 0 && state[i - 1] !== "\n") continue;
    all += 1;
    if (state[i + 1] === "%" && state[i + 2] === "\n") active += 1;
    i = state.indexOf("\n", i);
    if (i === -1) break;
  }
  return { active, all };
}

/** The changed part of `after` against `before`, with some context either side. */
function change(before, after) {
  let start = 0;
  const most = Math.min(before.length, after.length);
  while (start < most && before[start] === after[start]) start++;
  let end = 0;
  while (end < most - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  const clip = (s) => (s.length > CLIP ? s.slice(0, CLIP) + `… (${s.length} characters)` : s);
  return {
    at: start,
    pre: before.slice(Math.max(0, start - CONTEXT), start),
    removed: clip(before.slice(start, before.length - end)),
    added: clip(after.slice(start, after.length - end)),
    post: after.slice(after.length - end, after.length - end + CONTEXT),
  };
}

function step(skip) {
  const n = RULES.length;
  while (replay.index < n) {
    const i = replay.index++;
    const before = replay.state;
    const after = applyRule(i, before);
    replay.state = after;
    if (after !== before || !skip) {
      return {
        index: i,
        total: n,
        pattern: RULES[i][0].source.slice(0, 600),
        origin: ORIGINS[i] ?? "",
        threads: threads(after),
        change: after === before ? null : change(before, after),
        done: replay.index >= n,
      };
    }
  }
  return { index: n - 1, total: n, done: true, change: null, threads: threads(replay.state) };
}

let run, applyRule, RULES, ORIGINS;

self.onmessage = async (event) => {
  try {
    ({ run, applyRule, RULES, ORIGINS } = await loading);
  } catch (error) {
    self.postMessage({ type: "error", id: event.data.id, message: `cannot load ${file}: ${error}` });
    return;
  }
  const data = event.data;
  if (data.type === "replay") {
    replay = { state: data.state, index: 0 };
    self.postMessage({ type: "replay-ready", id: data.id });
    return;
  }
  if (data.type === "step") {
    if (!replay) return;
    self.postMessage({ type: "replay-step", id: data.id, ...step(data.skip) });
    return;
  }
  const { id, state } = data;
  const started = performance.now();
  let lastReport = 0;
  try {
    const result = run(state, (i, n) => {
      const now = performance.now();
      if (now - lastReport < THROTTLE_MS && i + 1 < n) return;
      lastReport = now;
      self.postMessage({
        type: "progress",
        id,
        index: i,
        total: n,
        pattern: RULES[i][0].source.slice(0, 300),
        origin: ORIGINS[i] ?? "",
      });
    });
    self.postMessage({ type: "done", id, state: result, ms: performance.now() - started });
  } catch (error) {
    self.postMessage({ type: "error", id, message: String(error) });
  }
};

loading.then(
  (rules) => self.postMessage({ type: "ready", rules: rules.RULES.length, file }),
  (error) => self.postMessage({ type: "error", id: 0, message: `cannot load ${file}: ${error}` }),
);
