// The page's side of the worker: runs configs, routes progress, cancels, and restarts
// the worker after an internal error so the page keeps working.

export class Cancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'Cancelled';
  }
}

/** An error from a run: `field` names the faulty input ('' when none); `kept`: the bytes
 * the worker keeps of earlier results, where they are why the run was refused. */
export class RunError extends Error {
  constructor(message, field, panic, pair = null, kept = null) {
    super(message);
    this.name = 'RunError';
    this.field = field;
    this.panic = panic;
    this.pair = pair;
    this.kept = kept;
  }
}

/** A worker that has run no slice for this long is stuck (an endless loop in the core):
 * it is terminated and replaced. A slice takes about 8 ms; a run's one-off set-up (a
 * 14.5-million-page repository's allocations) takes seconds, far from a minute. */
const WATCHDOG_MS = 60_000;

/** How long a cancelled run may take to stop by itself. A slice takes about 8 ms, but a
 * run's set-up (seconds for 14.5 million pages) or a partial result cannot stop midway;
 * past this the worker is terminated (its memory freed at once) and replaced, and its
 * other runs start again on the new one. */
const CANCEL_GRACE_MS = 250;

/** A result the worker that computed it keeps (the page gets what its tables show and
 * the figures): its redraws, CSV, page lists and JSON export are asked of that worker.
 * `key`: its run's id (or its join's), under which the worker keeps the run's latest
 * result. A worker restarted since says it no longer keeps it; the request then goes
 * again with `shown`, what the page was shown, which that worker keeps again, unless it
 * is a cut of the whole (a history's pages), when the request rejects saying to run
 * again. */
export class HeldResult {
  constructor(client, key) {
    this.client = client;
    this.key = key;
  }

  /** Asks the worker `request` of it; `shown`, what the page was shown of it, goes only
   * where that worker no longer keeps it (restarted since), to keep again: its copy
   * costs the page's thread (19 ms for a result of 20,000 pages' worth). */
  ask(request, shown) {
    return this.client.ask({ ...request, key: this.key }).catch((error) => {
      if (error?.field !== 'kept') throw error;
      return this.client.ask({ ...request, key: this.key, shown });
    });
  }

  /** Its figures (core.Held.figures), drawn under `config` (display settings changed
   * since the run; none: its own). */
  figures(config, shown) {
    return this.ask({ type: 'figures', config }, shown);
  }

  /** Its data as CSV, or as the page list experiment `reader` reads. */
  table(reader, shown) {
    return this.ask({ type: 'table', reader }, shown);
  }

  /** {config, result} as an export's JSON, in a Blob (worker-files.js `exported`: each
   * held file's text in place of its marker). */
  exported(config, shown) {
    return this.ask({ type: 'export', config }, shown);
  }

  /** Lets the worker free it (the page shows another). */
  release() {
    this.client.worker.postMessage({ type: 'release', key: this.key });
  }
}

export class WorkerClient {
  constructor(source, module) {
    this.url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    this.module = module;
    this.pending = new Map();
    this.cancelling = new Set();
    this.nextId = 1;
    this.restarts = 0;
    this.watchdogMs = WATCHDOG_MS;
    this.lastHeard = performance.now();
    // while a run is being built the worker is silent: the watchdog waits until then
    this.buildingUntil = 0;
    this.spawn();
    setInterval(() => this.watch(), 1000);
  }

  /** The watchdog: a run in flight and no word from the worker for too long. */
  watch() {
    const silent = performance.now() - this.lastHeard;
    if (this.pending.size > 0 && silent > this.watchdogMs && performance.now() > this.buildingUntil) {
      this.crash(`the computation stopped answering (nothing for ${Math.round(silent / 1000)} s: an endless loop?)`);
    }
  }

  spawn() {
    const worker = new Worker(this.url, { name: 'freshlab-core' });
    this.worker = worker;
    this.ready = new Promise((resolve) => (this.onReady = resolve));
    // a replaced worker's last messages, already on their way, are not for the new one
    worker.onmessage = ({ data }) => worker === this.worker && this.receive(data);
    worker.onerror = (event) => {
      event.preventDefault();
      if (worker === this.worker) this.crash(`the worker failed: ${event.message ?? 'unknown error'}`);
    };
    worker.postMessage({ type: 'init', module: this.module });
  }

  receive(data) {
    this.lastHeard = performance.now();
    if (data.type === 'ready') return this.onReady();
    if (data.type === 'building') {
      this.buildingUntil = performance.now() + data.allowMs;
      return;
    }
    // any other word: the build is over (a hang from here is caught in watchdogMs)
    this.buildingUntil = 0;
    const run = this.pending.get(data.id);
    if (data.type === 'error' && data.panic) {
      this.crash(data.message);
      return;
    }
    if (!run) return;
    if (data.type !== 'progress') {
      this.pending.delete(data.id);
      this.cancelling.delete(data.id);
    }
    switch (data.type) {
      case 'progress':
        run.onProgress?.(data.fraction, data.partial, data.elapsedMs, data.figures);
        break;
      case 'result':
        run.resolve({ result: data.result, figures: data.figures, elapsedMs: data.elapsedMs, memoryBytes: data.memoryBytes });
        break;
      case 'cancelled':
        run.reject(new Cancelled());
        break;
      case 'error':
        run.reject(new RunError(data.message, data.field, false, data.pair, data.kept));
        break;
    }
  }

  /** An internal error: fail every run in flight with the message, start a new worker. */
  crash(message) {
    this.worker.terminate();
    this.lastHeard = performance.now();
    this.buildingUntil = 0;
    for (const run of this.pending.values()) run.reject(new RunError(`${message} — the worker was restarted; try again or change the input`, '', true));
    this.pending.clear();
    this.cancelling.clear();
    this.restarts += 1;
    this.spawn();
  }

  /** Posts `message` (its id a new one) and keeps it, to be posted again should the
   * worker be replaced; resolves with the worker's answer. */
  post(message, onProgress) {
    const promise = new Promise((resolve, reject) => this.pending.set(message.id, { resolve, reject, onProgress, message }));
    if (this.pending.size === 1) this.lastHeard = performance.now();
    this.worker.postMessage(message);
    return promise;
  }

  /** Starts a run of `config` (as the form's checks have it: a held file by its size or
   * shape), `prepare(config)` being what the worker runs (each held file by its marker,
   * worker-files.js); returns {promise, cancel, held}, the promise resolving to {result,
   * figures, elapsedMs, memoryBytes} and `onProgress(fraction, partial, elapsedMs,
   * figures)` called as it goes. `result` and `partial` are what the page's tables show,
   * `figures` theirs; `held` (a HeldResult) the whole of the latest, kept by the worker.
   * With `figures` false (a part of a run the pool joins) each result comes whole, none
   * kept. `buildMs`: how long the worker may be silent while it builds the run (the
   * watchdog's allowance; else watchdogMs). */
  run(config, { onProgress, buildMs = 0, prepare = (c) => c, figures = true } = {}) {
    const id = this.nextId++;
    const promise = this.post({ type: 'run', id, config: prepare(config), buildMs, figures }, onProgress);
    return { promise, cancel: () => this.cancel(id), held: new HeldResult(this, id) };
  }

  /** Posts `request` under a new id; resolves with the worker's answer. */
  ask(request) {
    return this.post({ ...request, id: this.nextId++ }).then(({ result }) => result);
  }

  /** A new key for a result the worker keeps (a pool's joins). */
  newKey() {
    return this.nextId++;
  }

  /** Asks the worker to stop run `id`; a worker that has not stopped it within
   * CANCEL_GRACE_MS is replaced. Either way the run's promise rejects with Cancelled. */
  cancel(id) {
    if (!this.pending.has(id) || this.cancelling.has(id)) return;
    this.cancelling.add(id);
    this.worker.postMessage({ type: 'cancel', id });
    setTimeout(() => this.pending.has(id) && this.replace(), CANCEL_GRACE_MS);
  }

  /** A new worker in place of one that did not stop a cancelled run in time: the runs
   * being cancelled end, the others start again from the beginning. */
  replace() {
    this.worker.terminate();
    this.lastHeard = performance.now();
    this.spawn();
    for (const [id, run] of this.pending) {
      if (!this.cancelling.has(id)) {
        this.worker.postMessage(run.message);
        continue;
      }
      this.pending.delete(id);
      run.reject(new Cancelled());
    }
    this.cancelling.clear();
  }

  /** Joins the results of a split run's parts in the worker (a join decodes every part's
   * measures: the sensors' downloads, a million at the article's scale, take about
   * 20–60 ms, too long for the page's main thread), which keeps it under `key`;
   * resolves to {result, figures} as a run's. */
  merge(config, results, key) {
    return this.ask({ type: 'merge', config, results, key });
  }

  /** Reads the files `blobs` (Files or Blobs: handles, their bytes never read on this
   * thread) in the worker and holds their text in `slot` (a panel's file box) under
   * `serial` (worker-files.js `hold`): a run names them by marker. `records`: a
   * history's (gzip decompressed, a WARC file read as its capture index); `kind`: the shape read of each ('list' a page list's
   * servers and rates, 'seeds', 'hosts', 'trace'); `headChars`: its first characters
   * returned (of every `headEvery`-th file). Resolves to {result}: for each file {bytes, warc, records, head, shape or
   * shapeError}; rejects with what cannot be read (not UTF-8, damaged gzip, too big), its `field`
   * the file's index. */
  hold(request) {
    return this.post({ type: 'hold', id: this.nextId++, ...request });
  }

  /** Runs the pilot a configuration's estimate needs (core.pilot: bursty's GREEDY
   * counts) in the worker: milliseconds, too long for the main thread at every edit.
   * Resolves to {result}: the value of the field core.pilot_key names. */
  pilot(config) {
    return this.post({ type: 'pilot', id: this.nextId++, config });
  }

  /** Lets the worker free every result it keeps (each HeldResult then asks with what
   * the page was shown). */
  releaseAll() {
    this.worker.postMessage({ type: 'release-all' });
  }

  /** The form's check of `config` in the worker (panel.js verdictOf: its files are too
   * big to read on the main thread at every edit). Resolves to {problem} or {cost}. */
  check(config) {
    return this.ask({ type: 'check', config });
  }

  /** Makes the core panic, or loop for ever, inside the worker (the end-to-end tests,
   * with the tests' own build: the page's module has neither entry point). */
  hookForTest(type, message = '') {
    this.lastHeard = performance.now();
    return this.post({ type, id: this.nextId++, message });
  }
}

/** What a worker holds beside its run's estimate (and what the pool's joining worker
 * holds): its JavaScript heap, with the partial results it sends, and the compiled module. Measured by `npm run bench:webbase` (the
 * whole sampled Fig 5.8 on two workers): 0.81–0.89 GB of renderer memory per worker,
 * of which 0.69 GB was the module's own memory (its estimate: 0.66 GB). */
const WORKER_BYTES = 0.2e9;

/** How often, at most, the parts' partial results are joined for the page (ms). */
const JOIN_MS = 200;

/** Workers for the page: one runs everything, and a run the core can cut into parts
 * (the policies: each part a share of the servers, or of the runs when crawlers are
 * compared) takes as many as the browser reports cores and the tab's memory allows —
 * each part holds the whole repository (the run's estimate, and WORKER_BYTES). The core
 * joins the parts' results, to the same bits as one worker's, in a worker of its own (off
 * the main thread, and off the parts' workers, which would stall). Same interface as a
 * WorkerClient. */
export class WorkerPool {
  constructor(source, module, core) {
    Object.assign(this, { source, module, core });
    this.clients = [new WorkerClient(source, module)];
    this.size = Math.max(1, Math.min(8, navigator.hardwareConcurrency || 1));
    // a run estimated shorter than this stays on one worker: starting others costs more
    this.minSeconds = 0.5;
  }

  get restarts() {
    return this.clients.reduce((sum, c) => sum + c.restarts, 0);
  }

  get watchdogMs() {
    return this.clients[0].watchdogMs;
  }

  set watchdogMs(ms) {
    for (const c of this.clients) c.watchdogMs = ms;
  }

  /** Workers busy with a run or a join now (a cancelled run leaves none). */
  get busy() {
    return [...this.clients, this.joiner].filter((c) => c && c.pending.size > 0).length;
  }

  hookForTest(type, message) {
    return this.clients[0].hookForTest(type, message);
  }

  /** Files read and held by the first worker (WorkerClient.hold); the others read a
   * run's files from their markers. */
  hold(request) {
    return this.clients[0].hold(request);
  }

  /** Frees what the first worker keeps (a refused run is checked there, beside it). */
  releaseAll() {
    this.clients[0].releaseAll();
  }

  /** The form's check, by the first worker (WorkerClient.check). */
  check(config) {
    return this.clients[0].check(config);
  }

  /** A configuration's pilot, from the first worker (WorkerClient.pilot). */
  pilot(config) {
    return this.clients[0].pilot(config);
  }

  /** The parts of `config` for the workers it may take; the config alone if it cannot
   * be cut (or is invalid: the worker then says what is wrong). `cost`: its estimate, as
   * the form has it (null while the worker checks it: one worker runs it). */
  parts(config, cost) {
    try {
      cost = cost === undefined ? this.core.estimate(config) : cost;
      if (!(cost?.seconds >= this.minSeconds)) return [config];
      // the joining worker beside the parts'
      const fit = Math.floor((this.core.limits().browser.bytes - WORKER_BYTES) / (cost.bytes + WORKER_BYTES));
      const workers = Math.max(1, Math.min(this.size, fit));
      return workers > 1 ? this.core.split(config, workers) : [config];
    } catch {
      return [config];
    }
  }

  /** Starts a run (WorkerClient.run: `config` as checked, `prepare` making each part's
   * run); returns {promise, cancel, held}; the result says how many workers ran it. */
  run(config, { onProgress, buildMs = 0, prepare, cost } = {}) {
    const parts = this.parts(config, cost);
    if (parts.length <= 1) return this.clients[0].run(config, { onProgress, buildMs, prepare });
    while (this.clients.length < parts.length) {
      const client = new WorkerClient(this.source, this.module);
      client.watchdogMs = this.clients[0].watchdogMs;
      this.clients.push(client);
    }
    this.joiner ??= new WorkerClient(this.source, this.module);
    this.joiner.watchdogMs = this.clients[0].watchdogMs;
    // the joins' results, kept by the joining worker under one key
    const held = new HeldResult(this.joiner, this.joiner.newKey());
    const started = performance.now();
    // the join's configuration: the run's, without its held files (the result echoes it
    // as one worker's does; the join needs no file)
    const joinConfig = Object.fromEntries(Object.entries(prepare ? prepare(config) : config).filter(([, v]) => !(v?.blob instanceof Blob)));
    const byServers = parts.some((p) => p.server_part);
    const fractions = parts.map(() => 0);
    const partials = parts.map(() => null);
    let joined = 0;
    let joining = null;
    let finished = false;
    const progress = (k, fraction, partial) => {
      fractions[k] = fraction;
      if (partial) partials[k] = partial;
      const now = performance.now();
      // no join once the run is cancelled or done: nobody would see it
      if (finished || joining || now - joined < JOIN_MS) return;
      joined = now;
      // a part of the servers reports its own share done (the shards cost about the same);
      // a part of the runs, its share of the whole run's work
      const done = Math.min(0.999, fractions.reduce((a, b) => a + b, 0) / (byServers ? parts.length : 1));
      const have = partials.filter(Boolean);
      if (have.length === 0) {
        onProgress?.(done, undefined, now - started);
        return;
      }
      joining = this.joiner.merge(joinConfig, have, held.key).then(
        ({ result, figures }) => {
          joining = null;
          if (!finished) onProgress?.(done, result, performance.now() - started, figures);
        },
        () => (joining = null),
      );
    };
    // the parts' results are joined, then drawn: a part's own figures would go unseen
    const runs = parts.map((part, k) => this.clients[k].run(part, { onProgress: (fraction, partial) => progress(k, fraction, partial), buildMs, prepare, figures: false }));
    const cancel = () => {
      finished = true;
      runs.forEach((r) => r.cancel());
    };
    // one part failing (or cancelled) stops the others; the run ends when every part (and
    // a join under way) has, so that a cancelled run leaves no worker computing
    runs.forEach((r) => r.promise.catch(cancel));
    const promise = Promise.allSettled(runs.map((r) => r.promise)).then(async (outcomes) => {
      finished = true;
      await joining;
      const failed = outcomes.filter((o) => o.status === 'rejected').map((o) => o.reason);
      if (failed.length > 0) throw failed.find((e) => !(e instanceof Cancelled)) ?? failed[0];
      const done = outcomes.map((o) => o.value);
      const { result, figures } = await this.joiner.merge(joinConfig, done.map((d) => d.result), held.key);
      return {
        result,
        figures,
        elapsedMs: performance.now() - started,
        workers: parts.length,
        memoryBytes: done.reduce((sum, d) => sum + d.memoryBytes, 0),
      };
    });
    return { promise, cancel, held };
  }
}
