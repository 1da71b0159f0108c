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
  constructor(message, field, panic) {
    super(message);
    this.name = 'RunError';
    this.field = field;
    this.panic = panic;
  }
}

export class WorkerClient {
  constructor(source, module) {
    this.url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    this.module = module;
    this.pending = new Map();
    this.nextId = 1;
    this.restarts = 0;
    this.spawn();
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
        run.reject(new RunError(data.message, data.field, false));
        break;
    }
  }

  /** An internal error: fail every run in flight with the message, start a new worker. */
  crash(message) {
    this.worker.terminate();
    for (const run of this.pending.values()) run.reject(new RunError(`${message} — the worker was restarted; try again or change the input`, '', true));
    this.pending.clear();
    this.restarts += 1;
    this.spawn();
  }

  /** Starts a run; returns {promise, cancel}. */
  run(config, { onProgress } = {}) {
    const id = this.nextId++;
    const promise = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject, onProgress }));
    this.worker.postMessage({ type: 'run', id, config });
    return { promise, cancel: () => this.pending.has(id) && this.worker.postMessage({ type: 'cancel', id }) };
  }

  /** Makes the core panic inside the worker (used by the end-to-end test). */
  panicForTest(message) {
    const id = this.nextId++;
    const promise = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.worker.postMessage({ type: 'panic-test', id, message });
    return promise;
  }
}
