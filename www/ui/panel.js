// One experiment on the page: its form, its run in the worker, its chart and exports.
import { Form } from './form.js';
import { ChartView } from './chart.js';
import { Progress } from './progress.js';
import { Cancelled } from '../worker-client.js';
import { downloadText } from './download.js';
import { encodeValue, decodeValue } from './state.js';

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
// partial results are drawn at most this often, the latest one each time, so that a
// run that reports often never piles drawing work onto the main thread
const PARTIAL_EVERY_MS = 300;

/**
 * spec: {experiment, name, label, fields, auto (run on every change), action (button
 * text when not auto), display (fields that only change what a finished result shows),
 * hover(core, x, y), details(result, element), setup(panel, controls) for extra
 * controls, augment(config) to add what the form does not hold}
 */
export class ExperimentPanel {
  /** `state` (a UrlState) keeps the panel's parameters in the page's URL. */
  constructor(section, spec, core, client, state) {
    this.spec = spec;
    this.core = core;
    this.client = client;
    this.state = state;
    this.section = section;
    this.running = null;
    this.lastConfig = null;
    const body = document.createElement('div');
    body.className = 'panel-body';
    const controls = document.createElement('div');
    controls.className = 'controls';
    const defaults = spec.initial ? spec.initial(core) : core.defaults(spec.experiment);
    this.defaults = Object.fromEntries(spec.fields.map((f) => [f.key, getPath(defaults, f.key)]));
    this.form = new Form(controls, spec.fields, this.defaults, () => this.changed());
    for (const field of spec.fields) if ((spec.keyFields ?? spec.fields.slice(0, 3).map((k) => k.key)).includes(field.key)) this.form.inputs.get(field.key).closest('.field').classList.add('key-field');
    this.status = document.createElement('p');
    this.status.className = 'status';
    this.status.setAttribute('role', 'status');
    const buttons = document.createElement('div');
    buttons.className = 'buttons';
    for (const preset of spec.presets ?? []) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'secondary preset';
      b.textContent = preset.label;
      b.addEventListener('click', () => {
        const values = preset.values(core);
        for (const field of spec.fields) {
          const v = getPath(values, field.key);
          if (v !== undefined) this.form.set(field.key, v);
        }
        this.changed();
      });
      buttons.append(b);
    }
    if (!spec.auto) {
      this.runButton = document.createElement('button');
      this.runButton.type = 'button';
      this.runButton.textContent = spec.action;
      this.runButton.addEventListener('click', () => this.start());
      buttons.append(this.runButton);
    }
    for (const [text, act] of [
      ['CSV', () => downloadText(`freshlab-${spec.name}.csv`, this.plots.csv(), 'text/csv')],
      ['JSON', () => this.exportJson()],
      ['Embed', () => this.copyEmbed()],
    ]) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'secondary export';
      b.textContent = text;
      b.setAttribute('aria-label', text === 'Embed' ? `Embed: copy the code that shows ${spec.label} alone, for slides` : `Download the data of ${spec.label} as ${text}`);
      b.addEventListener('click', () => this.result && act());
      buttons.append(b);
    }
    spec.setup?.(this, controls);
    controls.append(buttons);
    this.progress = new Progress(controls, `${spec.label}: progress`);
    this.note = document.createElement('p');
    this.note.className = 'estimate';
    controls.append(this.note, this.status);
    const output = document.createElement('div');
    output.className = 'output';
    this.charts = document.createElement('div');
    this.charts.className = 'charts';
    this.placeholder = document.createElement('p');
    this.placeholder.className = 'placeholder';
    this.placeholder.textContent = 'Computing…';
    this.charts.append(this.placeholder);
    this.chartViews = [];
    this.embedCode = document.createElement('textarea');
    this.embedCode.className = 'embed-code';
    this.embedCode.readOnly = true;
    this.embedCode.hidden = true;
    this.embedCode.setAttribute('aria-label', `Embed code for ${spec.label}`);
    controls.append(this.embedCode);
    this.result = null;
    this.details = document.createElement('div');
    this.details.className = 'details';
    // checked after layout (a ResizeObserver), never by forcing one inside a task
    this.detailsObserver = new ResizeObserver(() => this.reachDetails());
    this.detailsObserver.observe(this.details);
    output.append(this.charts, this.details);
    body.append(controls, output);
    section.append(body);
    let linked = false;
    if (state) {
      const params = state.paramsOf(spec.id);
      linked = [...params].length > 0 || state.globals.embed === spec.id;
      this.applyParams(params);
      state.register(spec.id, (params) => {
        for (const field of spec.fields) this.form.set(field.key, this.defaults[field.key]);
        this.applyParams(params);
        this.start();
      });
    }
    // long runs wait for the button unless a link asks for them
    if (spec.runOnLoad === false && !linked) {
      if (this.check()) this.placeholder.textContent = `Press “${spec.action}” to run. ${this.note.textContent}`;
    } else {
      this.start();
    }
  }

  /** Sets fields from URL text. */
  applyParams(params) {
    for (const [key, text] of params) {
      const field = this.spec.fields.find((f) => f.key === key);
      if (field) this.form.set(key, decodeValue(field, text));
    }
  }

  /** The parameters that differ from the defaults, as URL text. */
  params(config) {
    const params = new Map();
    for (const field of this.spec.fields) {
      const value = getPath(config, field.key);
      if (JSON.stringify(value) !== JSON.stringify(this.defaults[field.key])) params.set(field.key, encodeValue(field, value));
    }
    return params;
  }

  /** An iframe showing this panel's chart alone, in its current state. */
  async copyEmbed() {
    const base = `${location.origin === 'null' ? location.href.split('?')[0] : location.origin + location.pathname}`;
    const url = `${base}${this.state ? this.state.query(this.spec.id, { embed: this.spec.id }) : `?embed=${this.spec.id}`}`;
    const snippet = `<iframe src="${url.replace(/"/g, '&quot;')}" width="960" height="540" style="border:0" title="${this.spec.label} (Freshlab)" loading="lazy"></iframe>`;
    this.embedCode.value = snippet;
    this.embedCode.hidden = false;
    this.embedCode.select();
    try {
      await navigator.clipboard.writeText(snippet);
      this.setStatus('Embed code copied: paste it into a slide or page that accepts HTML.');
    } catch {
      this.setStatus('Embed code selected below: copy it with Ctrl+C (or ⌘C).');
    }
  }

  changed() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.spec.auto) return this.start();
      const config = this.check();
      if (config) this.redisplay(config);
    }, DEBOUNCE_MS);
  }

  /** When only display fields (spec.display) differ from the finished result's
   * configuration, draws that result again with them: no rerun. */
  redisplay(config) {
    const shown = this.result?.config;
    if (!shown || this.running || !this.spec.display) return;
    const differs = this.spec.fields.map((f) => f.key).filter((key) => JSON.stringify(getPath(config, key)) !== JSON.stringify(getPath(shown, key)));
    if (!differs.length || !differs.every((key) => this.spec.display.includes(key))) return;
    const next = structuredClone(shown);
    for (const key of differs) setPath(next, key, getPath(config, key));
    this.show({ ...this.result, config: next }, true);
    this.setStatus('Redrawn from the last run (a display choice: no rerun).');
  }

  /** Reads and validates the form; shows the first problem beside its field. */
  check() {
    this.form.clearErrors();
    const read = this.form.read();
    if (read.field) {
      this.form.showError(read.field, read.message);
      this.setStatus(`Check “${this.spec.fields.find((f) => f.key === read.field).label}”: ${read.message}.`, true);
      if (!this.result) this.placeholder.textContent = `No chart yet: ${this.status.textContent}`;
      return null;
    }
    const config = { experiment: this.spec.experiment };
    for (const [key, value] of Object.entries(read.config)) setPath(config, key, value);
    this.spec.augment?.(config);
    const problem = this.core.validate(config);
    if (problem) {
      this.showProblem(problem.field, problem.message);
      if (!this.result) this.placeholder.textContent = `No chart yet: ${this.status.textContent}`;
      return null;
    }
    this.note.textContent = this.spec.note?.(this.core, config) ?? '';
    this.setStatus('');
    this.state?.update(this.spec.id, this.params(config));
    return config;
  }

  /** Draws every figure of `result` (adding or removing charts as needed). The core
   * reads the result once; the previous reading is freed once no chart holds it. */
  show(result, final) {
    const previous = this.plots;
    this.plots = new this.core.Plots(result);
    this.result = result;
    this.placeholder.hidden = true;
    const count = this.plots.count();
    while (this.chartViews.length < count) {
      const index = this.chartViews.length;
      this.chartViews.push(new ChartView(this.charts, this.core, { name: this.spec.name, label: this.spec.label, index, hover: this.spec.hover && ((x, y) => this.spec.hover(this.core, x, y)) }));
    }
    while (this.chartViews.length > count) this.chartViews.pop().remove();
    for (const view of this.chartViews) view.show(this.plots, final);
    previous?.free();
    this.spec.details?.(result, this.details, final);
    if (this.observedTable) this.detailsObserver.unobserve(this.observedTable);
    this.observedTable = this.details.firstElementChild;
    if (this.observedTable) this.detailsObserver.observe(this.observedTable);
  }

  /** A table wider than the panel scrolls sideways: it then takes the keyboard focus, so arrows scroll it. */
  reachDetails() {
    const scrolls = this.details.scrollWidth > this.details.clientWidth;
    if (scrolls === this.details.hasAttribute('tabindex')) return;
    if (scrolls) {
      this.details.tabIndex = 0;
      this.details.setAttribute('role', 'region');
      this.details.setAttribute('aria-label', `${this.spec.label}: table (scrolls sideways)`);
    } else {
      for (const name of ['tabindex', 'role', 'aria-label']) this.details.removeAttribute(name);
    }
  }

  /** Draws the latest partial result, at most every PARTIAL_EVERY_MS. */
  showPartial(run, partial) {
    this.pendingPartial = partial;
    if (this.partialTimer) return;
    const wait = Math.max(0, (this.lastPartialAt ?? 0) + PARTIAL_EVERY_MS - performance.now());
    this.partialTimer = setTimeout(() => {
      this.partialTimer = null;
      if (this.running !== run || !this.pendingPartial) return;
      this.lastPartialAt = performance.now();
      this.show(this.pendingPartial, false);
      this.pendingPartial = null;
    }, wait);
  }

  showProblem(field, message) {
    const shown = field && this.form.showError(field, message);
    const name = field ? this.spec.fields.find((f) => f.key === field.replace(/\[.*$/, ''))?.label ?? field : '';
    this.note.textContent = '';
    this.setStatus(shown ? `Check “${name}”: ${message}.` : message, true);
  }

  setStatus(text, isError = false) {
    this.status.textContent = text;
    this.status.classList.toggle('is-error', isError);
  }

  start() {
    // a check still waiting for typing to pause would clear this run's status when it fires
    clearTimeout(this.timer);
    const config = this.check();
    this.running?.cancel();
    if (!config) {
      // the run in flight was for inputs the form no longer holds: its result would hide the error
      if (this.running) this.finish();
      return;
    }
    const run = this.client.run(config, {
      onProgress: (fraction, partial, elapsedMs) => {
        if (this.running !== run) return;
        this.progress.update(fraction, elapsedMs);
        if (partial) this.showPartial(run, partial);
      },
    });
    this.running = run;
    this.progress.start(() => run.cancel());
    if (this.runButton) this.runButton.disabled = true;
    run.promise.then(
      ({ result, elapsedMs }) => {
        if (this.running !== run) return;
        this.finish();
        this.lastConfig = config;
        this.show(result, true);
        this.setStatus(`Computed in ${elapsedMs < 1000 ? `${Math.max(1, Math.round(elapsedMs))} ms` : `${(elapsedMs / 1000).toFixed(1)} s`}.`);
      },
      (error) => {
        if (this.running !== run) return;
        this.finish();
        if (error instanceof Cancelled) this.setStatus('Cancelled. The chart shows the last partial result.');
        else this.showProblem(error.field, error.message);
        if (!this.result) this.placeholder.textContent = `No chart: the run failed. ${this.status.textContent}`;
      },
    );
  }

  finish() {
    this.running = null;
    this.progress.stop();
    if (this.runButton) this.runButton.disabled = false;
  }

  exportJson() {
    const text = JSON.stringify({ config: this.lastConfig, result: this.result }, null, 1);
    downloadText(`freshlab-${this.spec.name}.json`, text, 'application/json');
  }
}
