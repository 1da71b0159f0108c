// The page's side of the worker: runs configs, routes progress, cancels, and restarts
// the worker after an internal error so the page keeps working.

export class Cancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'Cancelled';
  }
}

/** An error from a run: `field` names the faulty input ('' when none). */
export class RunError extends Error {
  constructor(message, field, panic, pair = null) {
    super(message);
    this.name = 'RunError';
    this.field = field;
    this.panic = panic;
    this.pair = pair;
  }
}

/** A worker that has run no slice for this long is stuck (an endless loop in the core):
 * it is terminated and replaced. A slice takes about 8 ms; a run's one-off set-up (a
 * 14.5-million-page repository's allocations) takes seconds, far from a minute. */
const WATCHDOG_MS = 60_000;

export class WorkerClient {
  constructor(source, module) {
    this.url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    this.module = module;
    this.pending = new Map();
    this.nextId = 1;
    this.restarts = 0;
    this.watchdogMs = WATCHDOG_MS;
    this.lastHeard = performance.now();
    this.spawn();
    setInterval(() => this.watch(), 1000);
  }

  /** The watchdog: a run in flight and no word from the worker for too long. */
  watch() {
    const silent = performance.now() - this.lastHeard;
    if (this.pending.size > 0 && silent > this.watchdogMs) {
      this.crash(`the computation stopped answering (nothing for ${Math.round(silent / 1000)} s: an endless loop?)`);
    }
  }

  spawn() {
    this.worker = new Worker(this.url, { name: 'freshlab-core' });
    this.ready = new Promise((resolve) => (this.onReady = resolve));
    this.worker.onmessage = ({ data }) => this.receive(data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.crash(`the worker failed: ${event.message ?? 'unknown error'}`);
    };
    this.worker.postMessage({ type: 'init', module: this.module });
  }

  receive(data) {
    this.lastHeard = performance.now();
    if (data.type === 'ready') return this.onReady();
    const run = this.pending.get(data.id);
    if (data.type === 'error' && data.panic) {
      this.crash(data.message);
      return;
    }
    if (!run) return;
    switch (data.type) {
      case 'progress':
        run.onProgress?.(data.fraction, data.partial, data.elapsedMs);
        break;
      case 'result':
        this.pending.delete(data.id);
        run.resolve({ result: data.result, elapsedMs: data.elapsedMs });
        break;
      case 'cancelled':
        this.pending.delete(data.id);
        run.reject(new Cancelled());
        break;
      case 'error':
        this.pending.delete(data.id);
        run.reject(new RunError(data.message, data.field, false, data.pair));
        break;
    }
  }

  /** An internal error: fail every run in flight with the message, start a new worker. */
  crash(message) {
    this.worker.terminate();
    this.lastHeard = performance.now();
    for (const run of this.pending.values()) run.reject(new RunError(`${message} — the worker was restarted; try again or change the input`, '', true));
    this.pending.clear();
    this.restarts += 1;
    this.spawn();
  }

  /** Starts a run; returns {promise, cancel}. */
  run(config, { onProgress } = {}) {
    const id = this.nextId++;
    const promise = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject, onProgress }));
    if (this.pending.size === 1) this.lastHeard = performance.now();
    this.worker.postMessage({ type: 'run', id, config });
    return { promise, cancel: () => this.pending.has(id) && this.worker.postMessage({ type: 'cancel', id }) };
  }

  /** Makes the core panic, or loop for ever, inside the worker (the end-to-end tests,
   * with the tests' own build: the page's module has neither entry point). */
  hookForTest(type, message = '') {
    const id = this.nextId++;
    const promise = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.lastHeard = performance.now();
    this.worker.postMessage({ type, id, message });
    return promise;
  }
}
