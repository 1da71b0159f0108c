// The page's state in its URL: `?view=<name>&<panel>.<field>=<value>&…` for every
// parameter of the shown view's panels that differs from its default, plus `theme`,
// `font`, `embed`, `figure`, `controls`. A link reproduces the charts it shows exactly
// (seeds included); back and forward replay changes and moves between views.

const GLOBAL = ['view', 'theme', 'font', 'embed', 'figure', 'controls'];

/** A field's value as URL text. */
export function encodeValue(field, value) {
  switch (field.kind) {
    case 'bool':
      return value ? '1' : '0';
    case 'list':
    case 'choices':
      return value.length ? value.join(',') : 'none';
    case 'optional':
      return value === null ? 'none' : String(value);
    default:
      return String(value);
  }
}

/** URL text back to what the form shows (left as text when it is not valid: the form
 * then explains what is wrong, beside the field). */
export function decodeValue(field, text) {
  switch (field.kind) {
    case 'bool':
      return text === '1' || text === 'true';
    case 'choices':
      return text === 'none' ? [] : text.split(',');
    case 'list':
      return text === 'none' ? '' : text.replace(/,/g, ', ');
    case 'optional':
      return text === 'none' ? '' : text;
    default:
      return text;
  }
}

export class UrlState {
  /** `former`: panel names the URL may still use, with their current names. */
  constructor(former = {}) {
    this.former = former;
    this.panels = new Map(); // id → {onRestore}
    this.visible = null; // the shown view's panels (null: all)
    this.read();
    this.timer = 0;
    window.addEventListener('popstate', () => {
      this.read();
      this.onNavigate?.();
      for (const [id, entry] of this.panels) if (!this.visible || this.visible.has(id)) entry.onRestore?.(this.paramsOf(id));
      this.onGlobals?.(this.globals);
    });
  }

  /** The panels the URL holds parameters for. */
  panelsInUrl() {
    return [...this.byPanel.keys()];
  }

  /** View `id`, holding panels `visible`, is now shown: a new history entry, carrying
   * `params` (a Map panel → its parameters) if given. */
  navigate(id, visible, params) {
    if (id === 'home') delete this.globals.view;
    else this.globals.view = id;
    if (params) for (const [panel, p] of params) this.byPanel.set(panel, new Map(p));
    clearTimeout(this.timer);
    this.visible = visible;
    this.write();
  }

  read() {
    this.globals = {};
    this.byPanel = new Map();
    for (const [key, value] of new URLSearchParams(location.search)) {
      if (GLOBAL.includes(key)) {
        this.globals[key] = key === 'embed' ? (this.former[value] ?? value) : value;
        continue;
      }
      const dot = key.indexOf('.');
      if (dot < 1) continue;
      const panel = this.former[key.slice(0, dot)] ?? key.slice(0, dot);
      if (!this.byPanel.has(panel)) this.byPanel.set(panel, new Map());
      this.byPanel.get(panel).set(key.slice(dot + 1), value);
    }
  }

  /** The URL's parameters for panel `id` (field key → text). */
  paramsOf(id) {
    return this.byPanel.get(id) ?? new Map();
  }

  register(id, onRestore) {
    this.panels.set(id, { onRestore });
  }

  /** Panel `id` now shows `params` (only non-defaults); the URL follows, as a history
   * entry once typing pauses. */
  update(id, params) {
    this.byPanel.set(id, params);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.write(), 600);
  }

  setGlobal(key, value) {
    if (value === null || value === undefined || value === '') delete this.globals[key];
    else this.globals[key] = String(value);
    this.write();
  }

  /** The query string for panel `only`'s state, or the shown view's panels'. */
  query(only, extra = {}) {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries({ ...this.globals, ...extra })) if (value !== undefined && value !== null) search.set(key, value);
    for (const [panel, params] of this.byPanel) {
      if (only ? panel !== only : this.visible && !this.visible.has(panel)) continue;
      for (const [key, value] of params) search.set(`${panel}.${key}`, value);
    }
    const text = search.toString().replace(/%2C/g, ',');
    return text ? `?${text}` : '';
  }

  write() {
    const url = `${location.pathname}${this.query()}`;
    if (url === `${location.pathname}${location.search}`) return;
    try {
      history.pushState(null, '', url);
    } catch {
      // some file:// pages refuse history entries; the state still works in the page
    }
  }
}
