// A file for an experiment: chosen, dropped on its box, or a shipped sample. A large
// one (a page list, a trace, a seed list, a host file: a box with a shape) is read and
// held by the worker (worker-files.js): this thread keeps its handle, its size and its
// shape, and a run names it by marker. A crawler's configuration (at most 1 MB) is kept
// here as text and checked as it is. The core checks every row and names the bad ones.

const MAX_FILE_BYTES = 512 * 1024 * 1024;
/** A configuration file's size, at most (the core's limit for every such file). */
const MAX_SMALL_BYTES = 1024 * 1024;

/** A configuration file's UTF-8 text (small: read on this thread, by the core as the
 * worker reads the large ones), or says why not. */
async function readSmallFile(file, core) {
  if (file.size > MAX_SMALL_BYTES) throw new Error(`${file.name} is ${(file.size / 2 ** 20).toFixed(1)} MB, over the 1 MB a configuration file may have; is it the right file?`);
  try {
    return core.unpack(new Uint8Array(await file.arrayBuffer()), MAX_SMALL_BYTES, false).text;
  } catch (error) {
    throw new Error(`${file.name} ${error.message ?? error}`);
  }
}

/** Keeps `promise` (a file loading; resolves to whether it loaded) as `panel`'s: a run
 * asked for meanwhile waits for it (ExperimentPanel.start). */
export function whileLoading(panel, promise, name) {
  panel.loading.set(promise, name);
  promise.finally(() => panel.loading.delete(promise));
  return promise;
}

/** A held file's marker: what a run's configuration carries in its place. */
export const marker = (slot, serial, blob, part = 0, records = false) => ({ held: slot, serial, part, blob, ...(records && { records: true }) });

/** A shipped sample's text. Samples are not part of the page's script (they would weigh
 * on every load): each is a small script beside the page, loaded when asked for, which
 * also works for a page opened as a file. */
export function loadSample(name) {
  const samples = (globalThis.__freshlabSamples ??= {});
  if (samples[name]) return Promise.resolve(samples[name]);
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = `samples/${name}.js`;
    script.onload = () => (samples[name] ? resolve(samples[name]) : reject(new Error(`samples/${name}.js did not hold the sample`)));
    script.onerror = () => reject(new Error(`samples/${name}.js could not be loaded`));
    document.head.append(script);
  });
}

let loads = 0;

/** Makes `box` a drop target: `onFiles` gets the files dropped on it (at least one). */
export function takesDrops(box, onFiles) {
  box.addEventListener('dragover', (e) => {
    e.preventDefault();
    box.classList.add('dragging');
  });
  box.addEventListener('dragleave', () => box.classList.remove('dragging'));
  box.addEventListener('drop', (e) => {
    e.preventDefault();
    box.classList.remove('dragging');
    if (e.dataTransfer.files.length) onFiles(e.dataTransfer.files);
  });
}

/** Files one view sends to another (the history view's page list and trace): held here
 * by `panel id:file key` until that view's box takes them. */
const handoffs = new Map();

/** Sends `file` ({text, name}: the text, or a promise of it that the worker writes) to
 * the box `key` of panel `panelId`, which loads it when its view is next shown (its text
 * handed to the worker as a Blob). */
export function handOff(panelId, key, file) {
  handoffs.set(`${panelId}:${key}`, file);
}

/**
 * Adds a drop box to `controls`. options: {key (the panel property holding {value (its
 * text, or for a file with a shape its marker), name, bytes (its UTF-8 size), serial (one
 * per load), shape, rows}),
 * label, empty (status with nothing loaded and another source), waiting (nothing loaded
 * and this file the source), help (HTML), sample (its file name in samples/), sampleName,
 * sampleLabel, onLoad(panel, text) (e.g. switch the source field; the text of a file without a shape only), shape (the file's
 * shape read in the worker, for the cost — 'list': a page list's servers and rates,
 * 'trace': a trace's articles, changes and days, both kept when unreadable, their run
 * reporting the rows; 'seeds': a seed list's pages and pairs, 'hosts': Nutch's host
 * file's hosts and bounds, a file it cannot read refused with its line), shownFor(config) (shown only
 * when it says so, or while it holds a file), sampleFor(config) (another sample for this
 * configuration: {sample, sampleLabel, sampleName}, or null for the first)}.
 */
const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;
// a message set in a sentence of ours, which ends it: without its own full stop
const unstopped = (message) => message.replace(/\.$/, '');

/** What a link's run was given: “This link's run is on your page list x.csv (52 KB,
 * 3,001 rows)”. */
export function awaitedText(noun, { name, bytes, rows }) {
  const count = rows ? `, ${rows.toLocaleString('en')} rows` : '';
  return `This link's run is on your ${noun} ${name} (${kb(bytes)}${count})`;
}

/** The text files whose shape the worker reads (`shape` below): what the box says of one
 * read, and the file's name in a message. */
const TEXT_SHAPES = {
  seeds: { count: (shape) => `${shape.seeds.toLocaleString('en')} pages`, noun: 'seed list' },
  hosts: { count: (shape) => `${shape.hosts.toLocaleString('en')} hosts`, noun: 'per-host intervals' },
};

// the shapes of files a view keeps even when the worker cannot read them: they stand in
// the checks by their size, and the run reports their bad rows by line
// (what the box says of one read, and its rows, which a link names)
const HELD_SHAPES = {
  list: {
    count: (shape) => {
      // a spreadsheet in a European locale saves "CSV" with semicolons and decimal commas
      const read = shape.separator && shape.separator !== 'comma-separated' ? `, read as ${shape.separator} with decimal commas` : '';
      // a header the run will refuse is said now, not when the run starts
      const header = shape.header_problem ? `; the run will refuse its header: ${unstopped(shape.header_problem)}` : '';
      return `${shape.pages.toLocaleString('en')} rows on ${shape.servers.toLocaleString('en')} servers${read}${header}`;
    },
    rows: (shape) => shape.pages,
  },
  trace: {
    count: (shape) => `${shape.changes.toLocaleString('en')} changes of ${shape.pages.toLocaleString('en')} articles over ${(shape.minutes / 1440).toLocaleString('en')} days`,
    rows: (shape) => shape.changes,
  },
};

/** A held (or awaited) file as a link's parameter (“bytes:rows:name”), and back. */
export const fileParam = (file) => `${file.bytes}:${file.rows ?? ''}:${file.name}`;
export function parseFileParam(text) {
  const match = /^(\d+):(\d*):(.+)$/.exec(text);
  return match ? { bytes: Number(match[1]), rows: match[2] ? Number(match[2]) : null, name: match[3] } : null;
}

export function csvDropBox(panel, controls, options) {
  const box = document.createElement('div');
  box.className = 'trace-drop';
  box.innerHTML = `
    <label class="trace-pick">${options.label} <input type="file" accept="${options.accept ?? '.csv,text/csv,text/plain'}"></label>
    <button type="button" class="secondary trace-sample">${options.sampleLabel}</button>
    <p class="trace-status" role="status">${options.empty}</p>
    <p class="help">${options.help}</p>`;
  const status = box.querySelector('.trace-status');
  const sampleButton = box.querySelector('.trace-sample');
  // the sample offered: the options', or the one for the form's configuration
  let offered = options;
  // with nothing loaded, the status says what runs, or which file a link's run needs
  const spec = panel.fileSpecs.find((f) => f.key === options.key);
  // why the file last chosen was refused (null once another loads)
  let refusal = null;
  panel.fileBoxes.push({
    refresh(config) {
      const awaited = panel.awaited.get(options.key);
      // a file for one crawler only: out of the way for the others, unless one is held
      box.hidden = Boolean(options.shownFor) && !options.shownFor(config) && !panel[options.key] && !awaited;
      offered = options.sampleFor?.(config) ?? options;
      sampleButton.textContent = offered.sampleLabel;
      if (panel[options.key]) return;
      // a file just refused: why stays said until another is loaded
      if (refusal) status.textContent = refusal;
      else if (awaited) status.textContent = `${awaitedText(spec.noun, awaited)}: choose or drop it here and it runs.`;
      else status.textContent = spec.when(config) ? options.waiting : options.empty;
    },
  });
  const textShape = TEXT_SHAPES[options.shape];
  const heldShape = HELD_SHAPES[options.shape];
  const use = (held, said = '') => {
    refusal = null;
    panel[options.key] = held;
    const awaited = panel.awaited.get(options.key);
    panel.awaited.delete(options.key);
    // a link's run needed a file: given one, it runs, saying if it is not the same size
    const other = awaited && (awaited.bytes !== held.bytes || awaited.name !== held.name) ? ` (the link's run was on ${awaited.name}, ${kb(awaited.bytes)})` : '';
    status.textContent = `Loaded ${held.name} (${kb(held.bytes)})${said}${other}. ${options.loaded}`;
    // a file the run will refuse (a trace's bad rows) is kept: the run reports them
    if (held.refused) status.textContent = `Loaded ${held.name} (${kb(held.bytes)})${other}, but a run will refuse it: ${unstopped(held.refused)}.`;
    options.onLoad(panel, options.shape ? null : held.value);
    panel.changed();
    if (awaited) panel.start();
  };
  // the last file asked for: an earlier one read later is not used
  let latest = 0;
  /** Has the worker read and hold `blob` (its shape too), then uses it. */
  const hold = async (blob, name) => {
    const serial = ++loads;
    latest = serial;
    const slot = `${panel.spec.id}:${options.key}`;
    status.textContent = `Reading ${name}…`;
    const read = await panel.client.hold({ slot, serial, blobs: [blob], kind: options.shape }).then(
      ({ result }) => result[0],
      (error) => {
        throw new Error(`${name} ${unstopped(error.message)}`);
      },
    );
    if (latest !== serial) return;
    if (read.shapeError && textShape) {
      // a seed list or host file it cannot read is not held: its line and fix are said
      const error = new Error(`${name}: ${read.shapeError}`);
      error.panelMessage = `Check the ${textShape.noun}: ${unstopped(read.shapeError)}.`;
      throw error;
    }
    const held = { value: marker(slot, serial, blob), name, bytes: read.bytes, serial, shape: read.shape ?? null };
    if (read.shapeError) held.refused = read.shapeError;
    else if (heldShape) held.rows = heldShape.rows(read.shape);
    use(held, read.shape ? `: ${(textShape ?? heldShape).count(read.shape)}` : '');
  };
  /** A file's text (a sample's, another view's) in this box. */
  const useText = async (text, name) => (options.shape ? hold(new Blob([text]), name) : use({ value: text, name, bytes: new TextEncoder().encode(text).length, serial: ++loads }));
  // each resolves to whether the file was loaded
  const load = async (file) => {
    try {
      if (file.size > MAX_FILE_BYTES) throw new Error(`${file.name} is ${Math.round(file.size / 2 ** 20)} MB, over the 512 MB limit; keep fewer rows`);
      if (options.shape) await hold(file, file.name);
      else use({ value: await readSmallFile(file, panel.core), name: file.name, bytes: file.size, serial: ++loads });
      return true;
    } catch (error) {
      failed(error);
      return false;
    }
  };
  /** A file not loaded: the box and the panel say why. */
  const failed = (error) => {
    panel[options.key] = null;
    const message = unstopped(error.message);
    refusal = `Not loaded: ${message}.`;
    status.textContent = refusal;
    panel.setStatus(error.panelMessage ?? `Check the file: ${message}.`, true);
    panel.changed();
  };
  const loading = (promise, name) => whileLoading(panel, promise, name);
  box.querySelector('input[type=file]').addEventListener('change', (e) => e.target.files[0] && loading(load(e.target.files[0]), e.target.files[0].name));
  const loadShipped = async () => {
    try {
      const { sample, sampleName } = offered;
      await useText(await loadSample(sample), sampleName);
      return true;
    } catch (error) {
      failed(error);
      return false;
    }
  };
  const loadSampleAsked = () => {
    const promise = loadShipped();
    loading(promise, offered.sample);
    return promise;
  };
  sampleButton.addEventListener('click', loadSampleAsked);
  // a file another view sent (the history view's page list): loaded when this view shows
  const take = () => {
    const sent = handoffs.get(`${panel.spec.id}:${options.key}`);
    if (!sent) return;
    handoffs.delete(`${panel.spec.id}:${options.key}`);
    loading(Promise.resolve(sent.text).then((text) => useText(text, sent.name)).catch(failed), sent.name);
  };
  document.addEventListener('freshlab:view', take);
  queueMicrotask(take);
  // a preset may load the shipped sample (see the panel's presets' `then`)
  (panel.samples ??= {})[options.key] = loadSampleAsked;
  takesDrops(box, (files) => loading(load(files[0]), files[0].name));
  controls.append(box);
}
