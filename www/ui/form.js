// Labelled inputs built from a field list; values parsed with clear messages.

let serial = 0;

/**
 * fields: [{key, label, kind: 'number'|'integer'|'optional'|'list'|'bool'|'select'|'choices'|'text', help, options}]
 * ('optional' is a number that may be left empty, meaning none; 'choices' is a set of
 * check boxes whose value is the list of the options ticked)
 * Errors are shown next to the field they concern.
 */
/** The field's help and its error message, which describe `control` to assistive technology. */
function described(control, id, field) {
  const help = document.createElement('small');
  help.id = `${id}-help`;
  help.className = 'help';
  help.textContent = field.help ?? '';
  const error = document.createElement('span');
  error.id = `${id}-error`;
  error.className = 'error';
  error.setAttribute('role', 'alert');
  control.setAttribute('aria-describedby', `${help.id} ${error.id}`);
  return [help, error];
}

export class Form {
  constructor(container, fields, values, onChange) {
    this.fields = fields;
    this.inputs = new Map();
    this.errors = new Map();
    this.element = document.createElement('div');
    this.element.className = 'form';
    for (const field of fields) this.element.append(this.build(field, values[field.key], onChange));
    container.append(this.element);
  }

  build(field, value, onChange) {
    if (field.kind === 'choices') return this.buildChoices(field, value, onChange);
    const id = `f${++serial}-${field.key.replace(/\W/g, '-')}`;
    const wrap = document.createElement('div');
    wrap.className = `field field-${field.kind}`;
    const label = document.createElement('label');
    label.htmlFor = id;
    // its words before a parenthesis name it on a slide's strip (ui/slides.js)
    const cut = field.label.indexOf(' (');
    label.innerHTML = '<span class="label-main"></span><span class="label-more"></span>';
    label.firstChild.textContent = cut > 0 ? field.label.slice(0, cut) : field.label;
    label.lastChild.textContent = cut > 0 ? field.label.slice(cut) : '';
    let input;
    if (field.kind === 'select') {
      input = document.createElement('select');
      for (const [optionValue, text] of field.options) {
        const option = document.createElement('option');
        option.value = optionValue;
        option.textContent = text;
        input.append(option);
      }
    } else {
      input = document.createElement('input');
      input.type = field.kind === 'bool' ? 'checkbox' : 'text';
      if (field.kind !== 'bool') {
        input.inputMode = field.kind === 'list' || field.kind === 'text' ? 'text' : 'decimal';
        input.autocomplete = 'off';
        input.spellcheck = false;
      }
    }
    input.id = id;
    input.name = field.key;
    const [help, error] = described(input, id, field);
    input.addEventListener(field.kind === 'bool' || field.kind === 'select' ? 'change' : 'input', () => onChange(field.key));
    this.inputs.set(field.key, input);
    this.errors.set(field.key, error);
    this.set(field.key, value);
    if (field.kind === 'bool') {
      wrap.append(input, label, help, error);
    } else {
      wrap.append(label, input, help, error);
    }
    return wrap;
  }

  /** A fieldset of check boxes, one per option. */
  buildChoices(field, value, onChange) {
    const id = `f${++serial}-${field.key.replace(/\W/g, '-')}`;
    const set = document.createElement('fieldset');
    set.className = 'field field-choices';
    const legend = document.createElement('legend');
    legend.textContent = field.label;
    set.append(legend);
    const boxes = [];
    for (const [optionValue, text] of field.options) {
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.id = `${id}-${optionValue}`;
      box.value = optionValue;
      box.addEventListener('change', () => onChange(field.key));
      const label = document.createElement('label');
      label.htmlFor = box.id;
      label.textContent = text;
      const row = document.createElement('span');
      row.className = 'choice';
      row.append(box, label);
      set.append(row);
      boxes.push(box);
    }
    const [help, error] = described(set, id, field);
    set.append(help, error);
    this.inputs.set(field.key, set);
    this.errors.set(field.key, error);
    set.boxes = boxes;
    this.set(field.key, value);
    return set;
  }

  set(key, value) {
    const input = this.inputs.get(key);
    const field = this.fields.find((f) => f.key === key);
    if (!input) return;
    if (field.kind === 'choices') for (const box of input.boxes) box.checked = (value ?? []).includes(box.value);
    else if (field.kind === 'bool') input.checked = Boolean(value);
    else if (field.kind === 'optional' && value === null) input.value = '';
    else if (field.kind === 'list') input.value = typeof value === 'string' ? value : (value ?? []).join(', ');
    else input.value = value ?? '';
  }

  /** Parses every field: {config} or {field, message} for the first bad one. */
  read() {
    const config = {};
    for (const field of this.fields) {
      const input = this.inputs.get(field.key);
      const raw = field.kind === 'bool' ? input.checked : field.kind === 'choices' ? input.boxes.filter((b) => b.checked).map((b) => b.value) : input.value;
      const parsed = parse(field, raw);
      if (parsed.error) return { field: field.key, message: parsed.error };
      config[field.key] = parsed.value;
    }
    return { config };
  }

  clearErrors() {
    for (const [key, element] of this.errors) {
      element.textContent = '';
      this.inputs.get(key).removeAttribute('aria-invalid');
    }
  }

  /** Shows `message` beside `key` (a core field name such as levels[2] maps to levels). */
  showError(key, message) {
    const base = key.replace(/\[.*$/, '');
    const element = this.errors.get(base);
    if (!element) return false;
    const item = key.match(/\[(\d+)\]/);
    element.textContent = item ? `item ${Number(item[1]) + 1}: ${message}` : message;
    this.inputs.get(base).setAttribute('aria-invalid', 'true');
    return true;
  }
}

function parseNumber(text, integer) {
  const t = String(text).trim();
  if (t === '') return { error: 'enter a number' };
  // Number() accepts '0x10' and ' 1e3 '; require a plain decimal or exponent form.
  if (/^[-+]?\d*,\d+$/.test(t)) return { error: `“${t}” is not a number: write ${t.replace(',', '.')} with a decimal point` };
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return { error: `“${t}” is not a number` };
  const value = Number(t);
  if (!Number.isFinite(value)) return { error: `“${t}” is too large` };
  if (integer && !Number.isInteger(value)) return { error: `must be a whole number (got ${t})` };
  return { value };
}

/** A field's value from its text (as a form's input or a link holds it): {value} or {error}. */
export function parse(field, raw) {
  switch (field.kind) {
    case 'bool':
      return { value: raw };
    case 'select':
    case 'choices':
      return { value: raw };
    case 'text':
      return { value: String(raw) };
    case 'integer':
      return parseNumber(raw, true);
    case 'optional':
      return String(raw).trim() === '' ? { value: null } : parseNumber(raw, false);
    case 'number':
      return parseNumber(raw, false);
    case 'list': {
      const parts = String(raw).split(/[,\s]+/).filter((p) => p !== '');
      if (parts.length === 0) return { error: 'enter at least one number, separated by commas' };
      const values = [];
      for (const [k, part] of parts.entries()) {
        const n = parseNumber(part, false);
        if (n.error) return { error: `item ${k + 1}: ${n.error}` };
        values.push(n.value);
      }
      return { value: values };
    }
    default:
      throw new Error(`unknown field kind ${field.kind}`);
  }
}
