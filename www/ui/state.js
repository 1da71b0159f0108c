// The page's state in its URL: `?<panel>.<field>=<value>&…` for every parameter that
// differs from its default, plus `theme`, `font`, `embed`, `figure`, `controls`. A link
// reproduces the charts exactly (seeds included); back and forward replay changes.

const GLOBAL = ['theme', 'font', 'embed', 'figure', 'controls'];

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
  constructor() {
    this.panels = new Map(); // id → {fields, params: Map}
    this.read();
    this.timer = 0;
    window.addEventListener('popstate', () => {
      this.read();
      for (const [id, entry] of this.panels) entry.onRestore?.(this.paramsOf(id));
      this.onGlobals?.(this.globals);
    });
  }

  read() {
    this.globals = {};
    this.byPanel = new Map();
    for (const [key, value] of new URLSearchParams(location.search)) {
      if (GLOBAL.includes(key)) {
        this.globals[key] = value;
        continue;
      }
      const dot = key.indexOf('.');
      if (dot < 1) continue;
      const panel = key.slice(0, dot);
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

  /** The query string for the given panels' state (all panels when none given). */
  query(only, extra = {}) {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries({ ...this.globals, ...extra })) if (value !== undefined && value !== null) search.set(key, value);
    for (const [panel, params] of this.byPanel) {
      if (only && panel !== only) continue;
      for (const [key, value] of params) search.set(`${panel}.${key}`, value);
    }
    const text = search.toString().replace(/%2C/g, ',');
    return text ? `?${text}` : '';
  }

  write() {
    const url = `${location.pathname}${this.query()}${location.hash}`;
    if (url === `${location.pathname}${location.search}${location.hash}`) return;
    try {
      history.pushState(null, '', url);
    } catch {
      // some file:// pages refuse history entries; the state still works in the page
    }
  }
}
