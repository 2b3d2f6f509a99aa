// regex-chess: runs the exported rules (rules.js) in a Web Worker, so that the page
// stays responsive, and reports progress at most every 50 ms.
import { run, RULES, ORIGINS } from "./rules.js";

const THROTTLE_MS = 50;

self.onmessage = (event) => {
  const { id, state } = event.data;
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

self.postMessage({ type: "ready", rules: RULES.length });
