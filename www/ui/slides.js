// A chart on a slide: the fields an embed shows (`controls=1` or `controls=p,capacity`),
// and the keys a presentation uses, sent on to the deck around the chart so that a
// click inside the chart never leaves the lecturer stuck on the slide.

/** Short names a slide's URL may use for a field, besides its key. */
const ALIASES = { p: 'politeness_seconds', politeness: 'politeness_seconds', c: 'capacities', days: 'horizon_days' };

/** A name as it compares: dashes and underscores alike, a plural as its singular. */
function plain(name) {
  return name.toLowerCase().replace(/-/g, '_').replace(/ies$/, 'y').replace(/s$/, '');
}

/** The fields an embed's `controls` names, among the panel's `fields` ({key, label}):
 * `1` for its key fields (`keys`), else a comma-separated list of keys, their last part
 * (`pages` for `repository.pages`) or a short name (`p`). Returns {keys, unknown}. */
export function controlsOf(text, fields, keys) {
  if (!text || text === '0') return { keys: [], unknown: [] };
  if (text === '1') return { keys, unknown: [] };
  const found = [];
  const unknown = [];
  for (const name of text.split(',').map((n) => n.trim()).filter(Boolean)) {
    const wanted = plain(ALIASES[name.toLowerCase()] ?? name);
    const field = fields.find((f) => plain(f.key) === wanted) ?? fields.find((f) => plain(f.key.split('.').at(-1)) === wanted);
    if (field) found.includes(field.key) || found.push(field.key);
    else unknown.push(name);
  }
  return { keys: found, unknown };
}

/** Each deck key: reveal.js's method for it (its postMessage API) and the key code older
 * decks read. */
const DECK_KEYS = {
  ArrowRight: ['right', 39],
  ArrowLeft: ['left', 37],
  ArrowDown: ['down', 40],
  ArrowUp: ['up', 38],
  PageDown: ['next', 34],
  PageUp: ['prev', 33],
  ' ': ['next', 32],
  Home: ['slide', 36, [0]],
  End: ['slide', 35, [Number.MAX_VALUE]],
  b: ['togglePause', 66],
  '.': ['togglePause', 190],
};

/** Whether the focused control needs `key` itself (a text field its arrows and space, a
 * select every key, a check box or button its space). */
function controlNeeds(target, key) {
  if (!(target instanceof Element)) return false;
  if (target.isContentEditable || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT') return key !== 'PageUp' && key !== 'PageDown';
  if (target.tagName === 'INPUT') {
    const type = target.type;
    if (type === 'checkbox') return key === ' ';
    if (type === 'radio') return key === ' ' || key.startsWith('Arrow');
    return key !== 'PageUp' && key !== 'PageDown';
  }
  if (target.closest('button, summary, a[href]')) return key === ' ';
  return false;
}

/** The key pressed, as the deck around this frame receives it: dispatched on its
 * document where the deck is on the same origin; otherwise through postMessage, which
 * reveal.js understands as it is (`{"method": "right"}`), and which any other deck reads
 * with one line (docs/lecturers.md). */
function sendToDeck(event, [method, keyCode, args = []]) {
  // Shift+Space goes back, as in reveal.js
  const how = event.key === ' ' && event.shiftKey ? 'prev' : method;
  const init = { key: event.key, code: event.code, keyCode, which: keyCode, shiftKey: event.shiftKey, bubbles: true, cancelable: true };
  try {
    const deck = window.parent.document;
    const KeyboardEvent = window.parent.KeyboardEvent;
    deck.dispatchEvent(new KeyboardEvent('keydown', init));
    deck.dispatchEvent(new KeyboardEvent('keyup', init));
    return;
  } catch {
    // another origin (or a page opened from disk): the deck cannot be reached directly
  }
  window.parent.postMessage(JSON.stringify({ method: how, args }), '*');
  window.parent.postMessage({ type: 'freshlab:key', init }, '*');
}

/** In an embed inside a frame: the deck's keys that the focused control does not need
 * go on to the deck. */
export function forwardDeckKeys() {
  if (window.parent === window) return;
  document.addEventListener('keydown', (event) => {
    const entry = DECK_KEYS[event.key];
    if (!entry || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (controlNeeds(event.target, event.key)) return;
    event.preventDefault();
    sendToDeck(event, entry);
  });
}
