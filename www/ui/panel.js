// One experiment on the page: its form, its run in the worker, its charts and exports,
// and an honest account of what the charts show (out of date, partial, cancelled).
import { Form, parse } from './form.js';
import { ChartView } from './chart.js';
import { Progress } from './progress.js';
import { Cancelled } from '../worker-client.js';
import { download, downloadText } from './download.js';
import { encodeValue, decodeValue } from './state.js';
import { elapsed, number } from './format.js';
import { costNote, costText } from './cost.js';
import { EmbedDialog } from './embed-dialog.js';
import { controlsOf } from './slides.js';
import { awaitedText, fileParam, parseFileParam } from './csv-file.js';

/** “Your page list x.csv” + “has 3 bad rows…” → one sentence; a message that is not a
 * predicate follows a colon. */
function withSubject(subject, message) {
  const text = !subject ? message : /^(has|is|are|looks|needs|must|gives|names|repeats|holds|takes) /.test(message) ? `${subject} ${message}` : `${subject}: ${message}`;
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** Reads `a.b` from nested objects. */
export function getPath(object, path) {
  return path.split('.').reduce((node, key) => node?.[key], object);
}

/** Sets `a.b` in nested objects, creating them as needed. */
function setPath(object, path, value) {
  const keys = path.split('.');
  let node = object;
  for (const key of keys.slice(0, -1)) node = node[key] ??= {};
  node[keys.at(-1)] = value;
}

const DEBOUNCE_MS = 180;
/** The estimate's pilots a panel keeps (withPilot). */
const PILOTS_KEPT = 8;
/** How long an estimate waits for its pilot before it shows a first guess (ms). */
const GUESS_MS = 300;
/** Held files checked as they are (a crawler's configuration, its overrides, its rates by
 * type) over this many characters together are checked in the worker: a crawler-conf.yaml
 * near its 1 MB limit takes 80–150 ms to read, again at each edit of the crawler settings
 * written over it, too long for this thread (BENCHMARKS.md, `npm run bench:files`). */
const WORKER_CHECK_CHARS = 64 * 1024;
/** What a run's status adds where it ran once results kept in the worker were freed. */
const FREED = {
  own: ', once this view’s last result was freed in the worker to make room',
  all: ', once every view’s last result was freed in the worker to make room (the charts stay; a history’s pages are read again to export them)',
};
/** The worker's checks kept, by configuration: an edit and its undo ask once. */
const VERDICTS_KEPT = 4;
// partial results are drawn at most this often, the latest one each time, so that a
// run that reports often never piles drawing work onto the main thread
const PARTIAL_EVERY_MS = 300;

/** `value` in a task of its own: a large result's arrival (the browser's copy of what
 * its tables show and its figures, from the worker) and its drawing are two tasks, each
 * under 50 ms, not one over. */
const nextTask = (value) => new Promise((resolve) => setTimeout(() => resolve(value), 0));

/** Each table cell learns its column's heading, so that a phone can show a row as a card. */
function labelCells(element) {
  for (const table of element.querySelectorAll('table')) {
    const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent.trim());
    for (const row of table.querySelectorAll('tbody tr')) [...row.children].forEach((cell, k) => (cell.dataset.label = heads[k] ?? ''));
  }
}

function button(text, className, onClick, label) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = className;
  b.textContent = text;
  if (label) b.setAttribute('aria-label', label);
  b.addEventListener('click', onClick);
  return b;
}

/** The form's fields: each key of `spec.fields` as the core describes it, with the
 * panel's own words where it gives them, and a select's values. */
function describe(spec, described, choices) {
  return spec.fields.map((entry) => {
    const own = typeof entry === 'string' ? { key: entry } : entry;
    const field = described.find((f) => f.key === own.key);
    if (!field) throw new Error(`${spec.id}: the core describes no field ${own.key} (its experiment's fields())`);
    const merged = { ...field, ...own };
    if (merged.kind !== 'select' && merged.kind !== 'choices') return merged;
    if (!choices[merged.key]) throw new Error(`${spec.id}: the core names no values for the field ${merged.key} (its experiment's choices())`);
    return { ...merged, options: choices[merged.key] };
  });
}

/**
 * spec: {id, experiment (the id, with '_' for '-', unless given), heading, fields, auto
 * (run on every change), action (button text when not auto), display (fields
 * that only change what a finished result shows), initial(core) (the configuration the
 * form edits; the defaults otherwise), slideFigure(result) (the chart an embed shows
 * unless its address names one), keyFields (the fields `controls=1` puts on a slide),
 * figures (how many of the result's charts to
 * show), more {view, text} (a link to the full experiment), presets ([{label,
 * values(core), then(panel)?}]), estimate (show the run's cost under the form),
 * hover(core, x, y) (the read-out; "x: y" unless given), details(result, element,
 * phase, label, panel) (label(field, value): a value’s label, if the core names it),
 * setup(panel, controls), files [{key (the panel property a csvDropBox fills), field (the
 * configuration's text field), size (its size field; none: the text itself is checked,
 * for small files), shape (its shape field, when the worker reads one), param (its name
 * in a link), noun, otherwise (what runs without it), when(config)}]}
 * A file the panel holds goes to the core as its shape (or, until the worker has read
 * it, its size) while the form is checked (copying a list of hundreds of MB on every
 * edit would hold the main thread for seconds) and as its text only in the run.
 * `fields` lists the keys of the configuration the form shows, in order; the core
 * describes each one (core.fields: its label, help and kind), and an entry may be
 * {key, label?, help?} to say it otherwise in this panel. A 'select' or 'choices'
 * field offers the values the core names for it, with the labels the charts use
 * (core.choices): a view writes no options.
 */
export class ExperimentPanel {
  /** `state` (a UrlState) keeps the panel's parameters in the page's URL. */
  constructor(section, spec, core, client, state) {
    Object.assign(this, { spec, core, client, state, section });
    this.experiment = spec.experiment ?? spec.id.replaceAll('-', '_');
    this.fileSpecs = spec.files ?? [];
    this.fileBoxes = [];
    this.awaited = new Map();
    // the worker's pilots for the estimate, by key, and those it is running (withPilot)
    this.pilots = new Map();
    this.pilotAsked = new Set();
    // the worker's checks of configurations whose files are too big for this thread
    this.verdicts = new Map();
    this.verdictAsked = new Set();
    // files being loaded (a sample fetched, a chosen file read): promise → its name
    this.loading = new Map();
    this.running = null;
    this.result = null;
    // the whole of the result shown, kept by the worker (a HeldResult)
    this.held = null;
    this.shown = null; // the configuration the charts show (JSON), once a run started
    this.lastEdited = null;
    this.base = spec.initial ? spec.initial(core) : core.defaults(this.experiment);
    const choices = core.choices(this.experiment);
    this.label = (field, value) => choices[field]?.find((option) => option[0] === value)?.[1];
    this.described = core.fields(this.experiment);
    this.fields = describe(spec, this.described, choices);
    this.defaults = Object.fromEntries(this.fields.map((f) => [f.key, getPath(this.base, f.key)]));
    // settings a link gave that this form does not show: applied, kept in the link, said
    this.linked = new Map();

    const body = document.createElement('div');
    body.className = 'panel-body';
    // the form folds away on a phone, where the chart comes first
    // (on a slide, a strip under the chart)
    this.embedded = state?.globals.embed === spec.id;
    const controls = document.createElement(this.embedded ? 'div' : 'details');
    controls.className = 'controls';
    if (!this.embedded) {
      controls.open = !document.documentElement.classList.contains('narrow');
      controls.innerHTML = '<summary>Parameters</summary>';
    }
    this.controls = controls;
    this.form = new Form(controls, this.fields, this.defaults, (key) => this.changed(key));
    this.keyFields = spec.keyFields ?? this.fields.slice(0, 3).map((k) => k.key);
    // Enter in a field runs (a lecturer's slide: change a value, press Enter)
    controls.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' || !e.target.matches('.form input[type="text"], .form select')) return;
      e.preventDefault();
      this.start();
      if (this.embedded) this.closeDrawer(true);
    });

    const buttons = document.createElement('div');
    buttons.className = 'buttons';
    for (const preset of spec.presets ?? []) {
      buttons.append(
        button(preset.label, 'secondary preset', () => {
          // a preset is a whole configuration: an optional field it leaves out is none
          // (the sampled WEBBASE preset's draws must not outlive it)
          const values = preset.values(core);
          for (const field of this.fields) {
            const v = getPath(values, field.key);
            if (v !== undefined) this.form.set(field.key, v);
            else if (field.kind === 'optional') this.form.set(field.key, null);
          }
          // and it replaces what a link set beyond the form
          this.linked = new Map();
          this.noteLinked([]);
          this.changed();
          preset.then?.(this);
        }),
      );
    }
    if (!spec.auto) {
      this.runButton = button(spec.action, 'primary run', () => this.start());
      buttons.append(this.runButton);
    }
    const exports = document.createElement('div');
    exports.className = 'buttons exports';
    for (const [text, act] of [
      ['CSV', () => this.exportCsv()],
      ['JSON', () => this.exportJson()],
      ['Embed', () => (this.embedDialog ??= new EmbedDialog(this)).open()],
    ]) {
      const label = text === 'Embed' ? `Embed ${spec.heading} in a slide: size, text size, controls, and the code` : `Download the data of ${spec.heading} as ${text}`;
      exports.append(button(text, 'secondary export', () => this.result && act(), label));
    }
    spec.setup?.(this, controls);
    controls.append(buttons);
    this.progress = new Progress(controls, `${spec.heading}: progress`);
    this.note = document.createElement('p');
    this.note.className = 'estimate';
    this.status = document.createElement('p');
    this.status.className = 'status';
    this.status.setAttribute('role', 'status');
    controls.append(this.note, this.status, exports);
    // the machine's speed measured (main.js): the time under the form is this machine's
    document.addEventListener('freshlab:speed', () => {
      if (this.spec.estimate && this.noted) this.note.textContent = this.costLine(this.noted, this.pilotPending(this.noted));
    });
    if (this.embedded) this.fitSlide(state.globals.controls);

    const output = document.createElement('div');
    output.className = 'output';
    this.charts = document.createElement('div');
    this.charts.className = 'charts';
    this.placeholder = document.createElement('p');
    this.placeholder.className = 'placeholder';
    this.placeholder.textContent = 'Computing…';
    // what the charts show, when it is not what the form says
    this.staleNote = document.createElement('p');
    this.staleNote.className = 'stale-note';
    this.staleNote.setAttribute('role', 'status');
    this.staleNote.hidden = true;
    this.charts.append(this.placeholder, this.staleNote);
    this.chartViews = [];
    this.details = document.createElement('div');
    this.details.className = 'details';
    output.append(this.charts, this.details);
    this.detailsObserver = new ResizeObserver(() => this.reachDetails());
    this.detailsObserver.observe(this.details);
    if (spec.more) {
      const more = document.createElement('a');
      more.className = 'more';
      more.href = `?view=${spec.more.view}`;
      more.dataset.view = spec.more.view;
      more.textContent = `${spec.more.text} →`;
      output.append(more);
      this.moreLink = more;
    }
    body.append(output, controls);
    section.append(body);

    if (state) {
      this.applyParams(state.paramsOf(spec.id));
      state.register(spec.id, (restored) => {
        for (const field of this.fields) this.form.set(field.key, this.defaults[field.key]);
        this.applyParams(restored);
        this.start();
      });
    }
    // every view opens on its chart: the defaults' runs take seconds, in the worker
    this.start();
  }

  /** Sets fields from URL text; `file` names the file a link's run was on. A setting of
   * the experiment this form does not show (`policies.bins`) is applied all the same and
   * said; one the experiment does not have is said as not applied (issue 45: neither is
   * dropped in silence). */
  applyParams(params) {
    this.awaited = new Map();
    this.linked = new Map();
    const unknown = [];
    for (const [key, text] of params) {
      const fileSpec = this.fileSpecs.find((f) => f.param === key);
      if (fileSpec) {
        if (!this[fileSpec.key]) this.awaited.set(fileSpec.key, parseFileParam(text));
        continue;
      }
      const field = this.fields.find((f) => f.key === key);
      const hidden = field ? null : this.described.find((f) => f.key === key);
      const parsed = hidden && parse(hidden, decodeValue(hidden, text));
      if (field) this.form.set(key, decodeValue(field, text));
      else if (hidden && !parsed.error) this.linked.set(key, { field: hidden, text, value: parsed.value });
      else unknown.push(hidden ? `“${key}” (${parsed.error})` : `“${key}”`);
    }
    this.noteLinked(unknown);
  }

  /** Under the form's summary: the link's settings the form does not show, and those
   * that are no setting of this experiment. */
  noteLinked(unknown) {
    this.linkNote?.remove();
    this.linkNote = null;
    if (!this.linked.size && !unknown.length) return;
    const note = document.createElement('p');
    note.className = 'link-note';
    note.setAttribute('role', 'status');
    const applied = [...this.linked].map(([key, { field, text }]) => `${field.label} (${key}) = ${text}`);
    if (applied.length) note.append(Object.assign(document.createElement('span'), { textContent: `Set by the address, beyond this form: ${applied.join('; ')}. ` }));
    if (unknown.length) {
      const words = `The address ${applied.length ? 'also ' : ''}gives ${unknown.join(', ')}, which ${unknown.length > 1 ? 'are' : 'is'} not a setting of ${this.experiment} it could read: not applied.`;
      note.append(Object.assign(document.createElement('span'), { className: 'link-unknown', textContent: words }));
    }
    const summary = this.controls.querySelector(':scope > summary');
    if (summary) summary.after(note);
    else this.controls.prepend(note);
    this.linkNote = note;
  }

  /** The parameters that differ from the defaults, as URL text. */
  params(config) {
    const params = new Map();
    for (const field of this.fields) {
      const value = getPath(config, field.key);
      // an optional field the defaults leave out is none
      if (JSON.stringify(value ?? null) !== JSON.stringify(this.defaults[field.key] ?? null)) params.set(field.key, encodeValue(field, value));
    }
    for (const [key, { text }] of this.linked) params.set(key, text);
    // a run on a file names it, so that the link can ask for it again
    for (const spec of this.fileSpecs) {
      const held = this.heldFile(config, spec);
      const file = held ?? (spec.when(config) ? this.awaited.get(spec.key) : null);
      if (file) params.set(spec.param, fileParam(file));
    }
    return params;
  }

  /** The chart a slide shows: the address's `figure` (from 1), else the one the view
   * chooses for a slide (`slideFigure(result)`: where its phenomenon shows best), else
   * the first; one the result does not draw falls back to the last it does. */
  showOnSlide(result, count) {
    const asked = Number(this.state.globals.figure);
    const chosen = Number.isInteger(asked) && asked >= 1 ? asked - 1 : (this.spec.slideFigure?.(result) ?? 0);
    const shown = Math.min(chosen, Math.max(0, count - 1));
    for (const name of [...this.section.classList]) if (name.startsWith('show-figure-')) this.section.classList.remove(name);
    this.section.classList.add(`show-figure-${shown}`);
  }

  /** On a slide (`?embed=`): the fields `controls` names in a strip under the chart,
   * with the Run button and the progress; when they do not fit beside each other, a
   * button opens them as a drawer over the chart, which Enter (a run) or Escape closes. */
  fitSlide(controlsText) {
    // a chart out of date says so in the strip, clear of the chart (its own stamp is in
    // the row of exports a slide leaves out)
    this.stripStamp = document.createElement('p');
    this.stripStamp.className = 'stale-stamp';
    this.stripStamp.hidden = true;
    this.controls.querySelector('.buttons').after(this.stripStamp);
    const { keys, unknown } = controlsOf(controlsText, this.fields, this.keyFields);
    for (const key of keys) this.form.inputs.get(key)?.closest('.field')?.classList.add('strip-field');
    this.controls.classList.toggle('with-fields', keys.length > 0);
    if (unknown.length) {
      const notice = document.createElement('p');
      notice.className = 'slide-notice';
      notice.setAttribute('role', 'alert');
      notice.textContent = `The address's controls: nothing here is called ${unknown.map((n) => `“${n}”`).join(', ')}; this chart's values are ${this.fields.map((f) => f.key).join(', ')}.`;
      this.controls.prepend(notice);
    }
    if (!keys.length) return;
    this.drawerButton = button('Values', 'secondary drawer-toggle', () => (this.controls.classList.contains('drawer-open') ? this.closeDrawer(false) : this.openDrawer()));
    this.drawerButton.setAttribute('aria-expanded', 'false');
    this.controls.querySelector('.buttons').prepend(this.drawerButton);
    this.controls.addEventListener('keydown', (e) => e.key === 'Escape' && this.closeDrawer(false));
    const fit = () => {
      this.controls.classList.remove('drawer');
      const crowded = this.form.element.scrollWidth > this.form.element.clientWidth + 1;
      this.controls.classList.toggle('drawer', crowded);
    };
    this.fitStrip = fit;
    new ResizeObserver(fit).observe(this.controls);
    document.addEventListener('freshlab:appearance', fit);
    requestAnimationFrame(fit);
  }

  openDrawer() {
    this.controls.classList.add('drawer-open');
    this.drawerButton.setAttribute('aria-expanded', 'true');
    this.form.element.querySelector('.strip-field input, .strip-field select')?.focus();
  }

  /** Closes the drawer; after a run the focus leaves the field, so that the deck's keys
   * (arrows, a clicker) move the slides again. */
  closeDrawer(ran) {
    if (!this.drawerButton) return;
    const open = this.controls.classList.contains('drawer-open');
    this.controls.classList.remove('drawer-open');
    this.drawerButton.setAttribute('aria-expanded', 'false');
    if (ran) document.activeElement?.blur();
    else if (open) this.drawerButton.focus();
  }

  changed(key) {
    if (key) this.lastEdited = key;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.spec.auto) return this.start();
      const config = this.check();
      if (config) this.redisplay(config);
    }, DEBOUNCE_MS);
  }

  /** When only display fields (spec.display) differ from the finished result's
   * configuration, draws that result again with them: no rerun (the worker builds its
   * figures anew; an edit or a run meanwhile drops them). */
  redisplay(config) {
    const last = this.result;
    const shown = last?.config;
    if (!shown || this.running || !this.spec.display) return;
    const differs = this.fields.map((f) => f.key).filter((key) => JSON.stringify(getPath(config, key)) !== JSON.stringify(getPath(shown, key)));
    if (!differs.length || !differs.every((key) => this.spec.display.includes(key))) return;
    const next = structuredClone(shown);
    for (const key of differs) setPath(next, key, getPath(config, key));
    const result = { ...last, config: next };
    const asked = (this.redrawing = {});
    this.held.figures(next, last).then(
      (figures) => {
        if (this.redrawing !== asked || this.running || this.result !== last) return;
        this.show(result, figures, 'final', this.held);
        this.shown = JSON.stringify(this.comparable(config));
        this.markStale(config);
        this.setStatus('Redrawn from the last run (a display choice: no rerun).');
      },
      (error) => this.redrawing === asked && this.showProblem(error),
    );
  }

  /** The configuration as the form has it (base values for what it does not hold). */
  configOf(read) {
    const config = structuredClone(this.base);
    config.experiment = this.experiment;
    for (const [key, value] of Object.entries(read)) setPath(config, key, value);
    for (const [key, { value }] of this.linked) setPath(config, key, value);
    // a held file stands in the checks as its shape (read by the worker as it loaded),
    // else as its size (a file whose rows the run will refuse)
    for (const spec of this.fileSpecs) {
      const file = this.heldFile(config, spec);
      if (file && file.shape && spec.shape) config[spec.shape] = file.shape;
      // or as what the view gives for it (the history's records: each file's head and size)
      else if (file && spec.standIn) config[spec.field] = spec.standIn(file);
      else if (file && spec.size) config[spec.size] = file.bytes;
      // a small file (a crawler's configuration) is checked as it is
      else if (file) config[spec.field] = file.value;
    }
    this.withPilot(config);
    return config;
  }

  /** Puts in `config` the pilot its estimate needs (bursty's GREEDY counts, certify's
   * search, the crawlers' flights against servers with limits), as the worker ran it for these inputs; until the worker answers, only its
   * key, and the estimate is priced without it (the pilot takes milliseconds: never on
   * this thread). */
  withPilot(config) {
    // a configuration the worker checks (verdictOf) is priced there, its pilot run there
    // too: its key would read the files here (a crawler's file near 1 MB: 80 ms a read)
    if (this.heldTexts(config).chars > WORKER_CHECK_CHARS) return;
    let want;
    try {
      want = this.core.pilot_key(config);
    } catch {
      return;
    }
    if (!want) return;
    this.pilotField = want.field;
    config[want.field] = this.pilots.get(want.key) ?? { key: want.key };
    if (this.pilots.has(want.key) || this.pilotAsked.has(want.key)) return;
    this.pilotAsked.add(want.key);
    const { [want.field]: _pilot, ...inputs } = config;
    const answered = (pilot) => {
      this.pilotAsked.delete(want.key);
      this.pilots.set(want.key, pilot);
      // the last few inputs' pilots: an edit and its undo need no second run
      if (this.pilots.size > PILOTS_KEPT) this.pilots.delete(this.pilots.keys().next().value);
      if (this.noted?.[want.field]?.key !== want.key) return;
      this.noted[want.field] = pilot;
      this.note.textContent = this.costLine(this.noted);
    };
    this.client.pilot(inputs).then(
      ({ result }) => answered(result ?? { key: want.key }),
      // a worker that cannot run it (replaced, or the inputs refused): priced without
      () => answered({ key: want.key }),
    );
  }

  /** Whether `config`'s estimate waits for its pilot from the worker. */
  pilotPending(config) {
    const pilot = config[this.pilotField ?? ''];
    return Boolean(pilot) && !this.pilots.has(pilot.key);
  }

  /** A configuration as it was run, without the pilot its estimate used. */
  withoutPilot(config) {
    const { [this.pilotField ?? '']: _pilot, ...run } = config;
    return run;
  }

  /** The file of `spec` the panel holds for this configuration, if it takes one. */
  heldFile(config, spec) {
    return spec.when(config) ? (this[spec.key] ?? null) : null;
  }

  /** The configuration a run needs: each held file in place of its size or shape (its
   * text, or the marker by which the worker holding it finds it: worker-files.js). */
  forRun(config) {
    let run = config;
    for (const spec of this.fileSpecs) {
      const file = this.heldFile(run, spec);
      if (!file) continue;
      const { [spec.size ?? '']: _size, [spec.shape ?? '']: _shape, ...rest } = run;
      run = { ...rest, [spec.field]: file.value };
    }
    return run;
  }

  /** What decides the charts: the configuration without display-only fields, nor the
   * pilot its estimate used (the worker's answer to the same inputs comes in later). */
  comparable(config) {
    const run = this.withoutPilot(config);
    // a held file is its load's serial (another file of the same size is another run),
    // not what the checks read of it: a list's shape or a configuration's text, copied
    // and written out here at every check, held the page up to 14 ms at each
    for (const spec of this.fileSpecs) {
      const file = this.heldFile(config, spec);
      if (!file) continue;
      for (const key of [spec.shape, spec.size, spec.field]) if (key) delete run[key];
      run[`file:${spec.key}`] = file.serial;
    }
    const copy = structuredClone(run);
    for (const key of this.spec.display ?? []) setPath(copy, key, null);
    return copy;
  }

  /** Reads and validates the form; shows the first problem under its field (under the
   * field being edited when the problem lies between two fields). */
  check() {
    this.form.clearErrors();
    const read = this.form.read();
    let config = null;
    let problem = null;
    if (read.field) problem = { field: read.field, message: read.message };
    else {
      config = this.configOf(read.config);
      const verdict = this.verdictOf(config);
      // a configuration the core cannot even read throws its {field, message}: said as
      // any problem is (uncaught, the form kept its last estimate and ran nothing)
      if (verdict) problem = verdict.problem ?? null;
      else
        try {
          problem = this.core.validate(config);
        } catch (error) {
          problem = { field: error.field ?? '', message: error.message ?? String(error) };
        }
    }
    if (config) for (const box of this.fileBoxes) box.refresh(config);
    if (problem) {
      this.showProblem(problem);
      if (!this.result) this.placeholder.textContent = `No chart yet: ${this.status.textContent}`;
      this.markStale(null);
      return null;
    }
    clearTimeout(this.guessTimer);
    // an estimate waiting for its pilot (milliseconds, in the worker) keeps the last one
    // a moment rather than flash a first guess the pilot replaces at once
    if (this.spec.estimate && this.pilotPending(config)) this.guessTimer = setTimeout(() => this.pilotPending(config) && this.noted === config && (this.note.textContent = this.costLine(config, true)), GUESS_MS);
    else this.note.textContent = this.spec.estimate ? this.costLine(config) : '';
    this.noted = config;
    this.setStatus('');
    // a chart that follows the form keeps the link with it; one that waits for its
    // button updates the link when it runs, so that a link always shows its chart
    if (this.spec.auto) this.state?.update(this.spec.id, this.params(config));
    this.markStale(config);
    return config;
  }

  /** The sentence under the form for `config`'s estimate: this thread's, or the worker's
   * where it checks the configuration (verdictOf). */
  costLine(config, pending = false) {
    const verdict = this.verdictOf(config);
    if (!verdict) return costNote(this.core, config, pending);
    return verdict.cost ? costText(verdict.cost, pending) : `Checking your ${verdict.noun} in the worker (a file this size takes a moment here)…`;
  }

  /** `config`'s estimate (core.estimate's answer), or null while the worker checks it. */
  estimateOf(config) {
    const verdict = this.verdictOf(config);
    return verdict ? (verdict.cost ?? null) : this.core.estimate(config);
  }

  /** The texts of the files `config` holds as they are: their characters, the biggest
   * (its length and noun), and `config` with each named by its load's serial. */
  heldTexts(config) {
    let chars = 0;
    let biggest = null;
    const keyed = { ...config };
    for (const spec of this.fileSpecs) {
      const file = this.heldFile(config, spec);
      if (!file || typeof file.value !== 'string' || config[spec.field] !== file.value) continue;
      chars += file.value.length;
      if (!biggest || file.value.length > biggest.length) biggest = { length: file.value.length, noun: spec.noun };
      keyed[spec.field] = `file:${file.serial}`;
    }
    return { chars, biggest, keyed };
  }

  /** The worker's check of `config` where the files it holds as they are exceed
   * WORKER_CHECK_CHARS: {problem} or {cost}, or {pending, noun} until the worker answers
   * (asked then, once; the form is checked again with the answer); undefined where this
   * thread checks it. The worker prices the run beside nothing it keeps: a run refused
   * beside its earlier results frees them (start). */
  verdictOf(config) {
    const { chars, biggest, keyed } = this.heldTexts(config);
    if (chars <= WORKER_CHECK_CHARS) {
      this.waitingFor = null;
      return undefined;
    }
    const key = JSON.stringify(keyed);
    this.waitingFor = key;
    if (this.verdicts.has(key)) return this.verdicts.get(key);
    if (!this.verdictAsked.has(key)) {
      this.verdictAsked.add(key);
      const answered = (verdict) => {
        this.verdictAsked.delete(key);
        this.verdicts.set(key, verdict);
        if (this.verdicts.size > VERDICTS_KEPT) this.verdicts.delete(this.verdicts.keys().next().value);
        // the form, if it still says this, shown with the answer (a run's end checks it)
        if (this.waitingFor === key && !this.running) this.check();
      };
      this.client.check(config).then(answered, (error) => answered({ problem: { field: error.field ?? '', message: error.message ?? String(error) } }));
    }
    return { pending: true, noun: biggest.noun };
  }

  /** Marks the charts out of date when the form (`config`, or null when it is invalid)
   * no longer says what they show. */
  markStale(config) {
    if (!this.result || this.running) {
      // a run in progress draws the form's inputs: no chart of it is out of date
      this.charts.classList.remove('stale', 'invalid');
      this.staleNote.hidden = true;
      this.stampStale('');
      return;
    }
    const invalid = config === null;
    const stale = invalid || (this.shown !== null && JSON.stringify(this.comparable(config)) !== this.shown);
    this.charts.classList.toggle('stale', stale);
    this.charts.classList.toggle('invalid', invalid);
    this.staleNote.hidden = !stale;
    const failed = !invalid && this.failed?.key === JSON.stringify(this.comparable(config));
    if (failed) this.staleNote.textContent = this.failed.text;
    else if (invalid) this.staleNote.textContent = `Not redrawn: ${this.status.textContent} The chart still shows the last valid input.`;
    else if (stale) this.staleNote.textContent = `Out of date: the chart shows the last run, not your changes. Press “${this.spec.action}”.`;
    this.stampStale(stale ? this.staleNote.textContent : '');
  }

  /** Every chart's stamp, and the slide's strip's, say `why` (none when empty). */
  stampStale(why) {
    for (const view of this.chartViews) view.setStale(why);
    if (!this.stripStamp || this.stripStamp.title === why) return;
    this.stripStamp.hidden = !why;
    this.stripStamp.textContent = why ? 'Out of date' : '';
    this.stripStamp.title = why;
    // the strip's fields may no longer fit beside it: a drawer then
    this.fitStrip?.();
  }

  /** Draws `figures` (`result`'s, built by the worker), adding or removing charts as
   * needed, and writes `result`'s tables (`result`: what they show; `held`, the whole,
   * kept by the worker: a HeldResult). `phase`: 'final', 'partial' (`fraction` done)
   * or 'cancelled'. */
  show(result, figures, phase, held, fraction = 0) {
    const previous = this.plots;
    this.plots = new this.core.Plots(figures);
    this.result = result;
    if (this.held !== held) this.held?.release();
    this.held = held;
    this.placeholder.hidden = true;
    const count = Math.min(this.plots.count(), this.spec.figures ?? Infinity);
    while (this.chartViews.length < count) {
      const index = this.chartViews.length;
      this.chartViews.push(new ChartView(this.charts, this.core, { name: this.spec.id, label: this.spec.heading, index, hover: (x, y) => (this.spec.hover ? this.spec.hover(this.core, x, y) : `${number(x, 3)}: ${number(y, 4)}`) }));
    }
    while (this.chartViews.length > count) this.chartViews.pop().remove();
    for (const view of this.chartViews) view.show(this.plots, phase, fraction);
    if (this.embedded) this.showOnSlide(result, count);
    previous?.free();
    this.spec.details?.(result, this.details, phase, this.label, this);
    labelCells(this.details);
    for (const table of this.details.querySelectorAll('table')) this.detailsObserver.observe(table);
  }

  /** A table wider than the panel scrolls sideways: it then takes the keyboard focus, so
   * arrows scroll it (checked after layout by a ResizeObserver, never forced in a task). */
  reachDetails() {
    const scrolls = this.details.scrollWidth > this.details.clientWidth + 1;
    if (scrolls === this.details.hasAttribute('tabindex')) return;
    if (scrolls) {
      this.details.tabIndex = 0;
      this.details.setAttribute('role', 'region');
      this.details.setAttribute('aria-label', `${this.spec.heading}: tables (scroll sideways)`);
    } else {
      for (const name of ['tabindex', 'role', 'aria-label']) this.details.removeAttribute(name);
    }
  }

  /** Draws the latest partial result, at most every PARTIAL_EVERY_MS. */
  showPartial(run, partial, figures, fraction) {
    this.pendingPartial = { partial, figures, fraction };
    if (this.partialTimer) return;
    const wait = Math.max(0, (this.lastPartialAt ?? 0) + PARTIAL_EVERY_MS - performance.now());
    this.partialTimer = setTimeout(() => {
      this.partialTimer = null;
      if (this.running !== run || !this.pendingPartial) return;
      this.lastPartialAt = performance.now();
      this.show(this.pendingPartial.partial, this.pendingPartial.figures, 'partial', run.held, this.pendingPartial.fraction);
      this.lastPartial = this.pendingPartial;
      this.pendingPartial = null;
    }, wait);
  }

  /** `config`'s estimate, or null where it is being checked or cannot be priced. */
  estimated(config) {
    try {
      return this.estimateOf(config);
    } catch {
      return null;
    }
  }

  /** How long a worker may stay silent building a run (its pages, their allocation: one
   * call): three times the whole run's estimated native time (the browser's code is
   * slower, and so may the machine be), at least a minute. */
  buildAllowance(config) {
    // unpriced (being checked in the worker, or refused: the worker says why at once)
    return Math.max(60_000, 3000 * (this.estimated(config)?.seconds ?? 0));
  }

  /** A problem from the form or the core, under its field; a problem between two fields
   * under the one being edited, in its words. */
  showProblem(problem) {
    let { field, message } = problem;
    if (problem.pair && problem.pair.field === this.lastEdited) ({ field, message } = problem.pair);
    const shown = field && this.form.showError(field, message);
    const name = field ? (this.fields.find((f) => f.key === field.replace(/\[.*$/, ''))?.label ?? field) : '';
    this.note.textContent = '';
    const awaited = this.fileSpecs.some((f) => f.field === field && this.awaited.has(f.key) && !this[f.key]);
    if (awaited) message = 'choose or drop it in the box beside the chart and it runs';
    this.setStatus(shown ? `Check “${name}”: ${message}.` : withSubject(this.subjectOf(field), message), true);
  }

  /** What a run on `config` is made from, where a view takes files: “your page list
   * x.csv”, “the generated pages” (else empty), one phrase a file. */
  inputsOf(config) {
    return this.fileSpecs
      .map((spec) => {
        if (!spec.when(config)) return spec.otherwise;
        const held = this.heldFile(config, spec);
        return held ? `your ${spec.noun} ${held.name}` : `your ${spec.noun}`;
      })
      .join(' and ');
  }

  /** Who a message is about when no field of the form shows it: the file (“Your page
   * list x.csv”), else the setting's name. */
  subjectOf(field) {
    const root = (field ?? '').split(/[.[]/)[0];
    const spec = this.fileSpecs.find((f) => [f.field, f.size, f.shape].includes(root));
    if (spec) {
      const held = this[spec.key];
      if (held) return `Your ${spec.noun} ${held.name}`;
      const awaited = this.awaited.get(spec.key);
      if (awaited) return awaitedText(spec.noun, awaited);
      return `Your ${spec.noun}`;
    }
    return field ? `“${field}”` : '';
  }

  setStatus(text, isError = false) {
    this.status.textContent = text;
    this.status.classList.toggle('is-error', isError);
  }

  /** Runs the form's configuration (`afterFreeing`: again, once this view's last result
   * was freed to make room for it, 'own', or once every view's was, 'all'). */
  start(afterFreeing = false) {
    // a check still waiting for typing to pause would clear this run's status when it fires
    clearTimeout(this.timer);
    // a file still loading when the button is pressed: the run waits for it, so that it
    // runs on what was asked (without this, it ran on the inputs before the file)
    if (this.loading.size) {
      this.setStatus(`Loading ${[...this.loading.values()].join(', ')}: it runs once loaded.`);
      if (!this.startsAfterLoad) {
        this.startsAfterLoad = true;
        Promise.allSettled([...this.loading.keys()]).then((outcomes) => {
          this.startsAfterLoad = false;
          // a file that did not load says why in its box: nothing runs in its stead
          if (outcomes.every((o) => o.status === 'fulfilled' && o.value !== false)) this.start();
          else this.setStatus('Not run: a file did not load (its box says why); load it again or choose another, then press the button.', true);
        });
      }
      return;
    }
    const config = this.check();
    this.running?.cancel();
    if (!config) {
      // the run in flight was for inputs the form no longer holds: its result would hide the error
      if (this.running) this.finish();
      return;
    }
    if (!this.spec.auto) this.state?.update(this.spec.id, this.params(config));
    const before = this.shown;
    const inputs = this.inputsOf(config);
    this.failed = null;
    this.shown = JSON.stringify(this.comparable(config));
    this.lastPartial = null;
    const runConfig = this.forRun(config);
    const run = this.client.run(config, {
      prepare: (part) => this.forRun(part),
      buildMs: this.buildAllowance(config),
      cost: this.estimated(config),
      onProgress: (fraction, partial, elapsedMs, figures) => {
        if (this.running !== run) return;
        this.progress.update(fraction, elapsedMs);
        this.fraction = fraction;
        if (partial) this.showPartial(run, partial, figures, fraction);
      },
    });
    this.running = run;
    this.markStale(config);
    this.progress.start(() => run.cancel());
    if (this.runButton) this.runButton.disabled = true;
    // a run whose result is not shown (replaced by another, or its inputs since changed)
    // lets the worker free what it keeps of it
    const dropped = () => this.held !== run.held && run.held.release();
    run.promise.then(nextTask).then(
      ({ result, figures, elapsedMs, workers }) => {
        if (this.running !== run) return dropped();
        this.finish();
        this.lastConfig = this.withoutPilot(runConfig);
        this.shownInputs = inputs;
        this.show(result, figures, 'final', run.held);
        // edits made while it ran leave the chart out of date; an invalid one keeps its
        // message in the status, which the run's time would otherwise replace
        if (this.check()) this.setStatus(`Computed in ${elapsed(elapsedMs)}${workers > 1 ? ` on ${workers} workers` : ''}${FREED[afterFreeing] ?? ''}.`);
      },
      (error) => {
        if (this.running !== run) return dropped();
        this.finish();
        if (error instanceof Cancelled) {
          const last = this.pendingPartial ?? this.lastPartial;
          this.pendingPartial = null;
          if (last) {
            this.lastConfig = this.withoutPilot(runConfig);
            this.shownInputs = inputs;
            this.show(last.partial, last.figures, 'cancelled', run.held, last.fraction);
            this.check();
            this.setStatus(`Cancelled at ${Math.round(100 * last.fraction)} %: the chart and the tables show the partial result.`);
          } else {
            this.setStatus('Cancelled before a first partial result.');
          }
        } else if (error.kept && afterFreeing !== 'all') {
          // refused beside what the worker keeps of earlier results (a history's pages):
          // this view's own last result is freed and the run goes again; refused still (or
          // with none of its own), every view's (their charts stay; asked for their data,
          // the page sends the worker what it was shown, or, for a history's pages, says
          // to run again)
          dropped();
          const own = !afterFreeing && this.held;
          if (own) this.held.release();
          else this.client.releaseAll();
          this.setStatus(`Freed the last ${own ? 'result this view' : 'results every view'} kept in the worker, to make room: running again…`);
          this.start(own ? 'own' : 'all');
        } else {
          dropped();
          this.showProblem(error);
          // the charts of the last run stay, greyed, saying what they were made from
          if (this.result) {
            this.shown = before;
            const on = (what) => (what ? ` on ${what}` : '');
            this.failed = {
              key: JSON.stringify(this.comparable(config)),
              text: `Not redrawn: the run${on(inputs)} failed (see the message under the form). The chart shows the last run${on(this.shownInputs)}.`,
            };
            this.markStale(config);
          }
        }
        if (!this.result) this.placeholder.textContent = `No chart: the run ${error instanceof Cancelled ? 'was cancelled' : 'failed'}. ${this.status.textContent}`;
      },
    );
  }

  finish() {
    this.running = null;
    this.progress.stop();
    if (this.runButton) this.runButton.disabled = false;
  }

  /** The result's data as CSV, written by the worker that keeps it. */
  async exportCsv() {
    try {
      downloadText(`freshlab-${this.spec.id}.csv`, await this.held.table(undefined, this.result), 'text/csv');
    } catch (error) {
      this.showProblem(error);
    }
  }

  /** The last run's configuration and result as JSON, written by the worker (each held
   * file's text put in there: this thread never holds it). */
  async exportJson() {
    try {
      download(`freshlab-${this.spec.id}.json`, await this.held.exported(this.lastConfig, this.result));
    } catch (error) {
      this.showProblem(error);
    }
  }
}
