// A CSV file for an experiment: chosen, dropped on its box, or a shipped sample. The
// text is kept by the panel and sent with the configuration when the run starts (the
// form's checks send its size); the core checks every row and names the bad ones.

const MAX_FILE_BYTES = 512 * 1024 * 1024;

/** Reads a chosen or dropped file as UTF-8 text, or says why it cannot. */
export async function readCsvFile(file) {
  if (file.size > MAX_FILE_BYTES) throw new Error(`${file.name} is ${Math.round(file.size / 2 ** 20)} MB, over the 512 MB limit; keep fewer rows`);
  const bytes = new Uint8Array(await file.arrayBuffer());
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) throw new Error(`${file.name} looks like UTF-16 text; save it as UTF-8 CSV`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const text = new TextDecoder('utf-8').decode(bytes);
    const line = text.slice(0, text.indexOf('\uFFFD')).split('\n').length;
    throw new Error(`${file.name} is not UTF-8 text (line ${line} holds a byte that is not valid UTF-8); save it as UTF-8 CSV`);
  }
}

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

/** Sends `file` ({text, name}) to the box `key` of panel `panelId`, which loads it when
 * its view is next shown. */
export function handOff(panelId, key, file) {
  handoffs.set(`${panelId}:${key}`, file);
}

/**
 * Adds a drop box to `controls`. options: {key (the panel property holding {text, name,
 * bytes (its UTF-8 size), serial (one per load)}),
 * label, empty (status with nothing loaded and another source), waiting (nothing loaded
 * and this file the source), help (HTML), sample (its file name in samples/), sampleName,
 * sampleLabel, onLoad(panel, text) (e.g. switch the source field), shape (the file's
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
      return `${shape.pages.toLocaleString('en')} rows on ${shape.servers.toLocaleString('en')} servers${read}`;
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
  panel.fileBoxes.push({
    refresh(config) {
      const awaited = panel.awaited.get(options.key);
      // a file for one crawler only: out of the way for the others, unless one is held
      box.hidden = Boolean(options.shownFor) && !options.shownFor(config) && !panel[options.key] && !awaited;
      offered = options.sampleFor?.(config) ?? options;
      sampleButton.textContent = offered.sampleLabel;
      if (panel[options.key]) return;
      if (awaited) status.textContent = `${awaitedText(spec.noun, awaited)}: choose or drop it here and it runs.`;
      else status.textContent = spec.when(config) ? options.waiting : options.empty;
    },
  });
  const use = (text, name, bytes) => {
    // reading: its shape is being read in the worker (the checks wait for it)
    const held = { text, name, bytes, serial: ++loads, shape: null, reading: Boolean(options.shape) };
    panel[options.key] = held;
    const awaited = panel.awaited.get(options.key);
    panel.awaited.delete(options.key);
    // a link's run needed a file: given one, it runs, saying if it is not the same size
    const other = awaited && (awaited.bytes !== bytes || awaited.name !== name) ? ` (the link's run was on ${awaited.name}, ${kb(awaited.bytes)})` : '';
    status.textContent = `Loaded ${name} (${kb(bytes)})${other}. ${options.loaded}`;
    options.onLoad(panel, text);
    panel.changed();
    if (awaited) panel.start();
    // the file's shape (a page list's servers, their sizes and rates; a trace's articles
    // and changes), read in the worker, makes the cost note as close as the text would
    const textShape = TEXT_SHAPES[options.shape];
    if (textShape) {
      panel.client.shape(text, options.shape).then(
        ({ result }) => {
          if (panel[options.key] !== held) return;
          held.shape = result;
          held.reading = false;
          status.textContent = `Loaded ${name} (${kb(bytes)}): ${textShape.count(result)}${other}. ${options.loaded}`;
          panel.changed();
        },
        // a file it cannot read is not held: its line and fix are said here
        (error) => {
          if (panel[options.key] !== held) return;
          panel[options.key] = null;
          status.textContent = `Not loaded: ${name}: ${unstopped(error.message)}.`;
          panel.setStatus(`Check the ${textShape.noun}: ${unstopped(error.message)}.`, true);
          panel.changed();
        },
      );
    } else if (options.shape) {
      panel.client.shape(text, options.shape).then(
        ({ result }) => {
          if (panel[options.key] !== held) return;
          held.shape = result;
          held.rows = HELD_SHAPES[options.shape].rows(result);
          held.reading = false;
          status.textContent = `Loaded ${name} (${kb(bytes)}): ${HELD_SHAPES[options.shape].count(result)}${other}. ${options.loaded}`;
          panel.changed();
        },
        // unread, the file stands in the checks by its size, and what the run will refuse
        // is said now (a trace's bad rows by line); the run reads it again
        (error) => {
          if (panel[options.key] !== held) return;
          held.reading = false;
          status.textContent = `Loaded ${name} (${kb(bytes)})${other}, but a run will refuse it: ${unstopped(error.message)}.`;
          panel.changed();
        },
      );
    }
  };
  // each resolves to whether the file was loaded
  const load = async (file) => {
    try {
      // the file's size is its UTF-8 text's: readCsvFile takes valid UTF-8 only
      use(await readCsvFile(file), file.name, file.size);
      return true;
    } catch (error) {
      panel[options.key] = null;
      status.textContent = `Not loaded: ${unstopped(error.message)}.`;
      panel.setStatus(`Check the file: ${unstopped(error.message)}.`, true);
      return false;
    }
  };
  // a run asked for meanwhile waits for the file (ExperimentPanel.start)
  const loading = (promise, name) => {
    panel.loading.set(promise, name);
    promise.finally(() => panel.loading.delete(promise));
  };
  box.querySelector('input[type=file]').addEventListener('change', (e) => e.target.files[0] && loading(load(e.target.files[0]), e.target.files[0].name));
  const loadShipped = async () => {
    try {
      const { sample, sampleName } = offered;
      const text = await loadSample(sample);
      use(text, sampleName, new TextEncoder().encode(text).length);
      return true;
    } catch (error) {
      status.textContent = `Not loaded: ${unstopped(error.message)}.`;
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
    use(sent.text, sent.name, new TextEncoder().encode(sent.text).length);
  };
  document.addEventListener('freshlab:view', take);
  queueMicrotask(take);
  // a preset may load the shipped sample (see the panel's presets' `then`)
  (panel.samples ??= {})[options.key] = loadSampleAsked;
  takesDrops(box, (files) => loading(load(files[0]), files[0].name));
  controls.append(box);
}
