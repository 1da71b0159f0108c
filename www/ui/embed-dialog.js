// The Embed dialog: a panel's chart for a slide. The lecturer picks the slide's size,
// the text size, the theme, which chart and which of its values the class may change;
// the dialog writes the code for an iframe, a reveal.js slide or a plain link, and shows
// a preview of exactly what the slide will show (the same address, at the same size).

/** Slide sizes, 16:9 and 4:3, the common ones of presentation programs. */
export const SLIDE_SIZES = [
  { label: '16:9, 960 × 540 (reveal.js, Google Slides)', width: 960, height: 540 },
  { label: '16:9, 1280 × 720 (PowerPoint, Keynote)', width: 1280, height: 720 },
  { label: '16:9, 1920 × 1080 (full HD)', width: 1920, height: 1080 },
  { label: '4:3, 1024 × 768', width: 1024, height: 768 },
  { label: '4:3, 800 × 600', width: 800, height: 600 },
];
const FONTS = [
  ['1', 'normal'],
  ['1.25', 'larger'],
  ['1.5', 'for a room'],
  ['2', 'for a hall'],
];
const THEMES = [
  ['auto', 'as the viewer’s system'],
  ['light', 'light'],
  ['dark', 'dark'],
];
const FORMATS = [
  ['iframe', 'an iframe (any HTML page, PowerPoint’s and Keynote’s web views)'],
  ['reveal', 'a reveal.js slide'],
  ['link', 'a plain link (Google Slides, a PDF handout)'],
];

let serial = 0;

function escapeAttribute(text) {
  return String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

function select(id, label, options, value) {
  return `<label for="${id}">${label}</label><select id="${id}">${options.map(([v, text]) => `<option value="${v}"${v === value ? ' selected' : ''}>${text}</option>`).join('')}</select>`;
}

/** The dialog of one panel. `panel` gives its spec (id, heading), its fields, its key
 * fields, how many charts it draws and the page's state (its parameters). */
export class EmbedDialog {
  constructor(panel) {
    this.panel = panel;
    const id = `embed${++serial}`;
    this.dialog = document.createElement('dialog');
    this.dialog.className = 'embed-dialog';
    this.dialog.setAttribute('aria-labelledby', `${id}-title`);
    const figures = Math.max(1, panel.chartViews.length);
    const font = document.documentElement.dataset.fontScale === '1' ? '1.5' : document.documentElement.dataset.fontScale;
    this.dialog.innerHTML = `
      <form method="dialog" class="embed-form">
        <h2 id="${id}-title">Embed “${panel.spec.heading}” in a slide</h2>
        <div class="embed-choose">
        <div class="embed-settings">
          ${select(`${id}-size`, 'Slide size', SLIDE_SIZES.map((s, k) => [String(k), s.label]), '0')}
          ${select(`${id}-font`, 'Text size', FONTS, FONTS.some(([v]) => v === font) ? font : '1.5')}
          ${select(`${id}-theme`, 'Theme', THEMES, document.documentElement.dataset.theme ?? 'auto')}
          ${figures > 1 ? select(`${id}-figure`, 'Chart', [...(panel.spec.slideFigure ? [['', 'the one this view picks for a slide']] : []), ...Array.from({ length: figures }, (_, k) => [String(k + 1), `chart ${k + 1} of ${figures}`])], panel.spec.slideFigure ? '' : '1') : ''}
          ${select(`${id}-controls`, 'Controls on the slide', [['none', 'none: the chart alone'], ['key', 'its key values, with a Run button'], ['chosen', 'the values ticked below']], 'none')}
          ${select(`${id}-format`, 'Code for', FORMATS, 'iframe')}
        </div>
        <fieldset class="embed-fields" hidden><legend>Values the class may change</legend>
          ${panel.fields.map((f) => `<label class="choice"><input type="checkbox" value="${f.key}"${panel.keyFields.includes(f.key) ? ' checked' : ''}> ${f.label}</label>`).join('')}
        </fieldset>
        <label for="${id}-code">The code (copied with the button)</label>
        <textarea id="${id}-code" class="embed-code" readonly></textarea>
        <p class="embed-hint fineprint"></p>
        <div class="buttons"><button type="button" class="primary embed-copy">Copy</button><button type="submit" class="secondary">Close</button></div>
        <p class="status" role="status"></p>
        </div>
        <div class="embed-look">
          <h3>Preview: exactly what the slide will show</h3>
          <div class="embed-preview"><iframe title="Preview of the embedded chart" tabindex="-1"></iframe></div>
        </div>
      </form>`;
    document.body.append(this.dialog);
    this.inputs = Object.fromEntries(['size', 'font', 'theme', 'figure', 'controls', 'format', 'code'].map((k) => [k, this.dialog.querySelector(`#${id}-${k}`)]));
    this.fieldBox = this.dialog.querySelector('.embed-fields');
    this.preview = this.dialog.querySelector('.embed-preview');
    this.frame = this.preview.querySelector('iframe');
    this.status = this.dialog.querySelector('.status');
    this.hint = this.dialog.querySelector('.embed-hint');
    this.dialog.addEventListener('change', () => this.update());
    this.dialog.querySelector('.embed-copy').addEventListener('click', () => this.copy());
    this.dialog.addEventListener('close', () => this.frame.removeAttribute('src'));
    new ResizeObserver(() => this.scalePreview()).observe(this.preview);
  }

  open() {
    this.dialog.showModal();
    this.update();
  }

  /** The slide's size. */
  size() {
    return SLIDE_SIZES[Number(this.inputs.size.value)];
  }

  /** The fields shown on the slide, as the embed's `controls` parameter. */
  controls() {
    const mode = this.inputs.controls.value;
    this.fieldBox.hidden = mode !== 'chosen';
    if (mode === 'none') return null;
    if (mode === 'key') return '1';
    const ticked = [...this.fieldBox.querySelectorAll('input:checked')].map((box) => box.value);
    return ticked.length ? ticked.join(',') : null;
  }

  /** The embed's address: the panel's parameters as the page shows them now. */
  url() {
    const { panel } = this;
    const page = location.origin === 'null' ? location.href.split('?')[0] : location.origin + location.pathname;
    const theme = this.inputs.theme.value;
    const figure = this.inputs.figure?.value;
    const extra = { embed: panel.spec.id, view: null, font: this.inputs.font.value === '1' ? null : this.inputs.font.value, theme: theme === 'auto' ? null : theme, controls: this.controls(), figure: figure && (figure !== '1' || panel.spec.slideFigure) ? figure : null };
    return `${page}${panel.state ? panel.state.query(panel.spec.id, extra) : `?embed=${panel.spec.id}`}`;
  }

  /** The code to paste, in the chosen form. */
  code(url) {
    const { width, height } = this.size();
    const title = escapeAttribute(`${this.panel.spec.heading} (Freshlab)`);
    switch (this.inputs.format.value) {
      case 'reveal':
        return `<section>\n  <iframe data-src="${escapeAttribute(url)}" width="${width}" height="${height}" style="border:0" title="${title}"></iframe>\n</section>`;
      case 'link':
        return url;
      default:
        return `<iframe src="${escapeAttribute(url)}" width="${width}" height="${height}" style="border:0" title="${title}" loading="lazy"></iframe>`;
    }
  }

  update() {
    const url = this.url();
    this.inputs.code.value = this.code(url);
    this.hint.textContent = {
      iframe: 'Paste it where the slide or page accepts HTML. Arrow keys, Page Up/Down and a clicker pressed inside the chart go on to the deck.',
      reveal: 'Paste it among your deck’s slides: reveal.js loads the chart when its slide is shown, and the chart sends the deck’s keys back to it; the deck needs no other line.',
      link: 'A link opens the chart full screen: in Google Slides insert it as a link, in a handout print it or turn it into a QR code.',
    }[this.inputs.format.value];
    this.status.textContent = '';
    const { width, height } = this.size();
    this.frame.width = width;
    this.frame.height = height;
    if (this.frame.getAttribute('src') !== url) this.frame.src = url;
    this.scalePreview();
  }

  /** The preview at the slide's own size, scaled down to the dialog's width. */
  scalePreview() {
    const { width, height } = this.size();
    const room = this.preview.clientWidth;
    if (!room) return;
    const scale = Math.min(1, room / width);
    this.frame.style.transform = `scale(${scale})`;
    this.preview.style.height = `${Math.ceil(height * scale)}px`;
  }

  async copy() {
    const text = this.inputs.code.value;
    this.inputs.code.select();
    try {
      await navigator.clipboard.writeText(text);
      this.status.textContent = 'Copied: paste it into the slide.';
    } catch {
      this.status.textContent = 'Selected: copy it with Ctrl+C (or ⌘C).';
    }
  }
}
