// regex-chess: runs the rules in a Web Worker, so that the page stays responsive, with
// one of two engines (the worker's address says which, and which rules):
//  - `engine=wasm`: the fast executor compiled to WebAssembly (`wasm=regex-chess.wasm`),
//    given the program's two files beside its rules module (`rules.program` and
//    `rules.parses` beside `rules.js`, keyed by `program=NAME`);
//  - `engine=regexp` (the default): the browser's own RegExp, running the rules module
//    (`rules=rules.js`, or a search variant's `rules-NAME.js` listed in variants.json).
// Both give the same states. A run reports its progress (the rule reached) at most every
// 250 ms. A replay applies the rules of a run again one step at a time, on request, and
// describes each step: the rule, its origin, the threads alive and the part of the state
// it changed.

const params = new URL(self.location.href).searchParams;
// Only files of the site itself: `rules.js` or `rules-NAME.js`, and a `NAME.wasm`.
const RULES_FILE = /^rules(-[A-Za-z0-9_.-]+)?\.js$/;
const WASM_FILE = /^[A-Za-z0-9_-]+\.wasm$/;
const asked = params.get("rules") ?? "rules.js";
const file = RULES_FILE.test(asked) && !asked.includes("..") ? asked : "rules.js";
const wasmFile = params.get("wasm") ?? "regex-chess.wasm";
const useWasm = params.get("engine") === "wasm";

const THROTTLE_MS = 250;
const CONTEXT = 120;
const CLIP = 400;
const PATTERN_CLIP = 300;

/** The bytes of a file of the site. */
async function fetchBytes(name) {
  const response = await fetch(new URL(`./${name}`, self.location.href));
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

// An engine: { name, total, run(state, onProgress(i, n)), rule(i) -> { pattern, origin },
// replay(state), step(skip) -> { index, state } of the last rule applied, or null when
// none is left }.

/** The browser's RegExp, running the exported rules module. */
async function regexpEngine() {
  const { run, applyRule, RULES, ORIGINS } = await import(`./${file}`);
  let replay = null;
  return {
    name: "RegExp",
    total: RULES.length,
    run,
    rule: (i) => ({ pattern: RULES[i][0].source, origin: ORIGINS[i] ?? "" }),
    replay(state) {
      replay = { state, index: 0 };
    },
    step(skip) {
      if (replay === null || replay.index >= RULES.length) return null;
      let index;
      while (replay.index < RULES.length) {
        index = replay.index++;
        const before = replay.state;
        replay.state = applyRule(index, before);
        if (replay.state !== before || !skip) break;
      }
      return { index, state: replay.state };
    },
  };
}

/** The fast executor in WebAssembly (crates/wasm: see its `abi` module for the calls). */
async function wasmEngine() {
  if (!WASM_FILE.test(wasmFile)) throw new Error(`not a module of the site: ${wasmFile}`);
  const base = file.replace(/\.js$/, "");
  const [module, program, parses] = await Promise.all([
    fetchBytes(wasmFile).then((bytes) => WebAssembly.compile(bytes)),
    fetchBytes(`${base}.program`),
    fetchBytes(`${base}.parses`),
  ]);
  let onProgress = null;
  const instance = await WebAssembly.instantiate(module, {
    env: { progress: (i, n) => onProgress?.(i, n) },
  });
  const x = instance.exports;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const output = () => decoder.decode(new Uint8Array(x.memory.buffer, x.rc_output_ptr(), x.rc_output_len()));
  // Calls `f` with each byte string copied into the module (pointer, length, ...), frees
  // them, and turns a failure (-1, or a trap) into an error with the module's message.
  const call = (f, ...inputs) => {
    const held = inputs.map((bytes) => {
      const ptr = x.rc_alloc(bytes.length);
      new Uint8Array(x.memory.buffer, ptr, bytes.length).set(bytes);
      return [ptr, bytes.length];
    });
    let code;
    try {
      code = f(...held.flat());
    } catch (error) {
      throw new Error(`${error}: ${output()}`);
    } finally {
      for (const [ptr, len] of held) x.rc_free(ptr, len);
    }
    if (code === -1) throw new Error(output());
    return code;
  };
  const name = params.get("program") ?? "";
  const total = call(x.rc_load, encoder.encode(name), program, parses);
  const text = (i, what) => (call(() => x.rc_rule(i, what)), output());
  return {
    name: "WebAssembly",
    total,
    run(state, progress) {
      onProgress = progress;
      try {
        call(x.rc_run, encoder.encode(state));
      } finally {
        onProgress = null;
      }
      return output();
    },
    rule: (i) => ({ pattern: text(i, 0), origin: text(i, 1) }),
    replay(state) {
      call(x.rc_replay, encoder.encode(state));
    },
    step(skip) {
      const index = call(() => x.rc_step(skip ? 1 : 0));
      return index < 0 ? null : { index, state: output() };
    },
  };
}

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

// The state before the replay's next step.
let replayed = null;

/** The replay's next step, described. */
function step(engine, skip) {
  const n = engine.total;
  const before = replayed;
  const next = engine.step(skip);
  if (next === null) return { index: n - 1, total: n, done: true, change: null, threads: threads(before) };
  replayed = next.state;
  const { pattern, origin } = engine.rule(next.index);
  return {
    index: next.index,
    total: n,
    pattern: pattern.slice(0, 600),
    origin,
    threads: threads(next.state),
    change: next.state === before ? null : change(before, next.state),
    done: next.index + 1 >= n,
  };
}

// Messages that arrive while the engine loads wait for it, in order.
const started = performance.now();
const loading = useWasm ? wasmEngine() : regexpEngine();

self.onmessage = async (event) => {
  let engine;
  try {
    engine = await loading;
  } catch (error) {
    self.postMessage({ type: "error", id: event.data.id, message: `cannot load the engine: ${error}` });
    return;
  }
  const data = event.data;
  try {
    if (data.type === "replay") {
      engine.replay(data.state);
      replayed = data.state;
      self.postMessage({ type: "replay-ready", id: data.id });
      return;
    }
    if (data.type === "step") {
      if (replayed === null) return;
      self.postMessage({ type: "replay-step", id: data.id, ...step(engine, data.skip) });
      return;
    }
  } catch (error) {
    self.postMessage({ type: "error", id: data.id, message: String(error) });
    return;
  }
  const { id, state } = data;
  const begun = performance.now();
  let lastReport = begun;
  try {
    const result = engine.run(state, (i, n) => {
      const now = performance.now();
      if (now - lastReport < THROTTLE_MS && i + 1 < n) return;
      lastReport = now;
      const { pattern, origin } = engine.rule(i);
      self.postMessage({
        type: "progress",
        id,
        index: i,
        total: n,
        ms: now - begun,
        pattern: pattern.slice(0, PATTERN_CLIP),
        origin,
      });
    });
    self.postMessage({ type: "done", id, state: result, ms: performance.now() - begun });
  } catch (error) {
    self.postMessage({ type: "error", id, message: String(error) });
  }
};

loading.then(
  (engine) => self.postMessage({
    type: "ready", rules: engine.total, file, engine: engine.name, ms: performance.now() - started,
  }),
  (error) => self.postMessage({ type: "error", id: 0, message: `cannot load the engine: ${error}` }),
);
