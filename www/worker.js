// The evaluation worker (web/src/browser.rs starts it). The page posts its compiled
// WebAssembly module first, so nothing is fetched here; every later message is a job for
// the module's evaluate_job (web/src/worker.rs), answered in the same order.
import init, { evaluate_job } from "./kubefit_web.js";

let ready;
self.onmessage = async ({ data }) => {
  if (!ready) {
    ready = init({ module_or_path: data });
    return;
  }
  await ready;
  try {
    self.postMessage(evaluate_job(data));
  } catch (error) {
    self.postMessage([data[0], null, String(error)]);
  }
};
