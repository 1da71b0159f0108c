// A chart on a canvas: sized to its box and the device, drawn by the core with
// plotters, with a pointer read-out, a text summary and exports.
import { download, downloadText } from './download.js';

export function currentTheme() {
  const forced = document.documentElement.dataset.theme;
  if (forced === 'dark' || forced === 'light') return forced === 'dark';
  return window.matchMedia('(prefers-color-scheme: dark)').matches;
}

export function fontScale() {
  return Number(document.documentElement.dataset.fontScale ?? 1) || 1;
}

/** Data coordinates of a device-pixel position inside the plotting frame. */
function toData(frame, px, py) {
  const tx = (px - frame.left) / (frame.right - frame.left);
  const ty = (frame.bottom - py) / (frame.bottom - frame.top);
  if (tx < 0 || tx > 1 || ty < 0 || ty > 1) return null;
  const along = (t, min, max, log) => (log ? 10 ** (Math.log10(min) + t * (Math.log10(max) - Math.log10(min))) : min + t * (max - min));
  return { x: along(tx, frame.x_min, frame.x_max, frame.x_log), y: along(ty, frame.y_min, frame.y_max, frame.y_log) };
}

// Redraws wait in a queue and run one per task, so that a window resize (every chart
// at once) never becomes one long task on the main thread. The first waits for a task
// of its own too: a resize observer's callback runs in the task that lays the page out,
// and a draw added to that layout made one task of both (58 ms on a busy machine).
const queue = new Set();
let draining = false;

function nextTask() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

async function drain() {
  draining = true;
  await nextTask();
  while (queue.size > 0) {
    const [view] = queue;
    queue.delete(view);
    view.redrawNow();
    await nextTask();
  }
  draining = false;
}

function scheduleRedraw(view) {
  queue.add(view);
  if (!draining) drain();
}

/** A view's first chart ends on the first screen (axes and legend included): it is no
 * taller than the window leaves below the header, the title and the panel's heading;
 * at least 15 rem, or 7 rem on a short screen for its text size (`.short`: a 960 × 540
 * window "for a hall" leaves 247 to 293 pixels, under the 480 of 15 rem). */
const firstCharts = new Set();
function fitFirstScreen() {
  for (const canvas of firstCharts) {
    if (!canvas.isConnected) {
      firstCharts.delete(canvas);
      continue;
    }
    if (canvas.offsetParent === null) continue; // in a hidden view
    const top = canvas.getBoundingClientRect().top + window.scrollY;
    const least = document.documentElement.classList.contains('short') ? 7 : 15;
    canvas.style.maxHeight = `max(${least}rem, ${Math.floor(innerHeight - top - 8)}px)`;
  }
}
window.addEventListener('resize', fitFirstScreen);
document.addEventListener('freshlab:appearance', fitFirstScreen);
document.addEventListener('freshlab:view', fitFirstScreen);

export class ChartView {
  /** Figure `index` of a result; hover(x, y) returns the read-out text for a point. */
  constructor(container, core, { name, label, hover, index = 0 }) {
    this.core = core;
    this.name = index === 0 ? name : `${name}-${index + 1}`;
    this.index = index;
    this.label = label;
    this.hover = hover;
    this.plots = null;
    this.frame = null;
    this.figure = document.createElement('figure');
    this.figure.className = `chart chart-${index}`;
    this.canvas = document.createElement('canvas');
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', label);
    this.readout = document.createElement('output');
    this.readout.className = 'readout';
    this.stamp = document.createElement('p');
    this.stamp.className = 'stale-stamp';
    this.stamp.hidden = true;
    this.stamp.setAttribute('aria-hidden', 'true');
    this.frameBox = document.createElement('div');
    this.frameBox.className = 'chart-frame';
    this.caption = document.createElement('figcaption');
    this.caption.className = 'summary';
    this.caption.setAttribute('aria-live', 'polite');
    const exports = document.createElement('div');
    exports.className = 'chart-exports';
    for (const [text, act] of [
      ['PNG', () => this.exportPng(2)],
      ['SVG', () => this.exportSvg()],
    ]) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'secondary export';
      b.textContent = text;
      b.setAttribute('aria-label', `Download this chart as ${text}`);
      b.addEventListener('click', () => this.plots && act());
      exports.append(b);
    }
    // the stamp sits in the row under the chart, never over its title or its data
    exports.prepend(this.stamp);
    this.frameBox.append(this.canvas, this.readout);
    this.figure.append(this.frameBox, this.caption, exports);
    container.append(this.figure);
    if (index === 0 && container.closest('.panel') === container.closest('.view')?.querySelector('.panel') && !document.documentElement.classList.contains('embed')) {
      firstCharts.add(this.canvas);
      fitFirstScreen();
    }
    this.canvas.addEventListener('pointermove', (e) => this.onPointer(e));
    this.canvas.addEventListener('pointerleave', () => (this.readout.textContent = ''));
    new ResizeObserver(() => scheduleRedraw(this)).observe(this.canvas);
    this.onAppearance = () => scheduleRedraw(this);
    document.addEventListener('freshlab:appearance', this.onAppearance);
  }

  options(pixelRatio) {
    const options = { dark: currentTheme(), pixel_ratio: pixelRatio, font_scale: fontScale() };
    // on a slide with controls, the texts are sized for the chart and its strip together:
    // the size they have on the same slide without controls
    const strip = document.documentElement.classList.contains('embed-controls') && this.canvas.closest('.panel-body')?.querySelector('.controls');
    if (strip) {
      const box = this.canvas.getBoundingClientRect();
      options.text_frame = [box.width, box.height + strip.getBoundingClientRect().height];
    }
    return options;
  }

  /** Draws `plots` (a result read by the core). `phase`: 'final', 'partial' (with the
   * `fraction` done) or 'cancelled'; the caption says which. */
  show(plots, phase = 'final', fraction = 0) {
    this.plots = plots;
    scheduleRedraw(this);
    const done = `${Math.round(100 * fraction)} %`;
    const prefix = { final: '', partial: `Running (${done} done), so far: `, cancelled: `Cancelled at ${done}; the partial result: ` }[phase];
    this.caption.textContent = prefix + plots.summary(this.index);
    this.canvas.setAttribute('aria-label', `${this.label}: ${this.caption.textContent}`);
    this.figure.dataset.phase = phase;
  }

  /** Marks the chart out of date (`why`), or clears the mark (''). */
  setStale(why) {
    this.stamp.hidden = !why;
    this.stamp.textContent = why ? 'Out of date' : '';
    this.figure.classList.toggle('is-stale', Boolean(why));
  }

  redrawNow() {
    if (!this.plots) return;
    const started = performance.now();
    const box = this.canvas.getBoundingClientRect();
    if (box.width < 10 || box.height < 10) return;
    const ratio = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(box.width * ratio);
    this.canvas.height = Math.round(box.height * ratio);
    this.frame = this.plots.draw(this.canvas, this.options(ratio), this.index);
    // what was drawn where (texts, legend), for the end-to-end tests
    this.canvas.frame = this.frame;
    this.canvas.dataset.drawn = String(Number(this.canvas.dataset.drawn ?? 0) + 1);
    this.canvas.dataset.drawMs = (performance.now() - started).toFixed(1);
  }

  /** The read-out follows the pointer, on the side away from the nearer edge. */
  onPointer(event) {
    if (!this.frame || !this.hover) return;
    const box = this.canvas.getBoundingClientRect();
    const ratio = this.canvas.width / box.width;
    const point = toData(this.frame, event.offsetX * ratio, event.offsetY * ratio);
    this.readout.textContent = point ? this.hover(point.x, point.y) : '';
    if (!point) return;
    const gap = 14;
    const right = event.offsetX > box.width / 2;
    const below = event.offsetY < box.height / 3;
    this.readout.style.left = right ? 'auto' : `${event.offsetX + gap}px`;
    this.readout.style.right = right ? `${box.width - event.offsetX + gap}px` : 'auto';
    this.readout.style.top = below ? `${event.offsetY + gap}px` : 'auto';
    this.readout.style.bottom = below ? 'auto' : `${box.height - event.offsetY + gap}px`;
  }

  size() {
    const box = this.canvas.getBoundingClientRect();
    return { width: Math.max(200, Math.round(box.width)), height: Math.max(150, Math.round(box.height)) };
  }

  exportPng(scale = 2) {
    const { width, height } = this.size();
    const canvas = document.createElement('canvas');
    canvas.width = width * scale;
    canvas.height = height * scale;
    this.plots.draw(canvas, this.options(scale), this.index);
    canvas.toBlob((blob) => download(`freshlab-${this.name}.png`, blob), 'image/png');
  }

  exportSvg() {
    const { width, height } = this.size();
    downloadText(`freshlab-${this.name}.svg`, this.plots.svg(width, height, this.options(1), this.index), 'image/svg+xml');
  }

  remove() {
    document.removeEventListener('freshlab:appearance', this.onAppearance);
    queue.delete(this);
    this.figure.remove();
  }
}
