// One experiment on the page: its form, its run in the worker, its chart and exports.
import { Form } from './form.js';
import { ChartView } from './chart.js';
import { Progress } from './progress.js';
import { Cancelled } from '../worker-client.js';
import { downloadText } from './download.js';

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

/**
 * spec: {experiment, name, label, fields, auto (run on every change), action (button
 * text when not auto), hover(core, x, y), details(result, element)}
 */
export class ExperimentPanel {
  constructor(section, spec, core, client) {
    this.spec = spec;
    this.core = core;
    this.client = client;
    this.running = null;
    this.lastConfig = null;
    const body = document.createElement('div');
    body.className = 'panel-body';
    const controls = document.createElement('div');
    controls.className = 'controls';
    const defaults = spec.initial ? spec.initial(core) : core.defaults(spec.experiment);
    this.form = new Form(controls, spec.fields, Object.fromEntries(spec.fields.map((f) => [f.key, getPath(defaults, f.key)])), () => this.changed());
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
      ['CSV', () => downloadText(`freshlab-${spec.name}.csv`, core.csv(this.result), 'text/csv')],
      ['JSON', () => this.exportJson()],
    ]) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'secondary export';
      b.textContent = text;
      b.setAttribute('aria-label', `Download the data of ${spec.label} as ${text}`);
      b.addEventListener('click', () => this.result && act());
      buttons.append(b);
    }
    controls.append(buttons);
    this.progress = new Progress(controls, `${spec.label}: progress`);
    this.note = document.createElement('p');
    this.note.className = 'estimate';
    controls.append(this.note, this.status);
    const output = document.createElement('div');
    output.className = 'output';
    this.charts = document.createElement('div');
    this.charts.className = 'charts';
    this.chartViews = [];
    this.result = null;
    this.details = document.createElement('div');
    this.details.className = 'details';
    output.append(this.charts, this.details);
    body.append(controls, output);
    section.append(body);
    this.start();
  }

  changed() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => (this.spec.auto ? this.start() : this.check()), DEBOUNCE_MS);
  }

  /** Reads and validates the form; shows the first problem beside its field. */
  check() {
    this.form.clearErrors();
    const read = this.form.read();
    if (read.field) {
      this.form.showError(read.field, read.message);
      this.setStatus(`Check “${this.spec.fields.find((f) => f.key === read.field).label}”: ${read.message}.`, true);
      return null;
    }
    const config = { experiment: this.spec.experiment };
    for (const [key, value] of Object.entries(read.config)) setPath(config, key, value);
    const problem = this.core.validate(config);
    if (problem) {
      this.showProblem(problem.field, problem.message);
      return null;
    }
    this.note.textContent = this.spec.note?.(this.core, config) ?? '';
    this.setStatus('');
    return config;
  }

  /** Draws every figure of `result` (adding or removing charts as needed). */
  show(result, final) {
    this.result = result;
    const count = this.core.figure_count(result);
    while (this.chartViews.length < count) {
      const index = this.chartViews.length;
      this.chartViews.push(new ChartView(this.charts, this.core, { name: this.spec.name, label: this.spec.label, index, hover: this.spec.hover && ((x, y) => this.spec.hover(this.core, x, y)) }));
    }
    while (this.chartViews.length > count) this.chartViews.pop().remove();
    for (const view of this.chartViews) view.show(result, final);
    this.spec.details?.(result, this.details, final);
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
    const config = this.check();
    if (!config) return;
    this.running?.cancel();
    const run = this.client.run(config, {
      onProgress: (fraction, partial, elapsedMs) => {
        if (this.running !== run) return;
        this.progress.update(fraction, elapsedMs);
        if (partial) this.show(partial, false);
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
