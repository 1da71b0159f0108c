// One view at a time: `?view=<name>` in the address (links, back and forward work), the
// header's menus to every view, and each view built the first time it is shown.
import { ExperimentPanel } from './panel.js';
import { GROUPS, FORMER_PANELS, FORMER_VIEWS, viewsOf } from '../views/index.js';

// the views, from the core's registry (`useRegistry`, before anything is shown)
let VIEWS = [];
let byId = new Map();
let viewOfPanel = new Map();

/** Takes the page's views from the core's registry of experiments. */
export function useRegistry(core) {
  VIEWS = viewsOf(core.experiments());
  byId = new Map(VIEWS.map((v) => [v.id, v]));
  viewOfPanel = new Map(VIEWS.flatMap((v) => v.panels.map((p) => [p.id, v.id])));
}

/** The views shown, in their order. */
export const views = () => VIEWS;

/** A panel's current name for one it once had (embed ids, URL prefixes). */
export function currentPanel(id) {
  return FORMER_PANELS[id] ?? id;
}

/** The view a URL asks for: `view=`, else the view of an embedded panel or of the first
 * panel it holds parameters for (links from before views), else an old `#view-…` hash. */
export function requestedView(state) {
  const asked = state.globals.view;
  if (asked) return byId.has(asked) ? { id: asked } : { id: 'home', unknown: asked };
  if (state.globals.embed) return { id: viewOfPanel.get(currentPanel(state.globals.embed)) ?? 'home', unknown: viewOfPanel.has(currentPanel(state.globals.embed)) ? null : state.globals.embed };
  for (const panel of state.panelsInUrl()) if (viewOfPanel.has(panel)) return { id: viewOfPanel.get(panel) };
  const hash = location.hash.slice(1);
  if (FORMER_VIEWS[hash]) return { id: FORMER_VIEWS[hash] };
  return { id: 'home' };
}

function link(view, text = view.title) {
  const a = document.createElement('a');
  a.href = `?view=${view.id}`;
  a.dataset.view = view.id;
  a.textContent = text;
  return a;
}

/** The header's menus: one per source (desktop), or one for all (phone). */
function buildNav(nav) {
  const all = document.createElement('details');
  all.className = 'menu menu-all';
  all.innerHTML = '<summary>Views</summary>';
  const allList = document.createElement('div');
  allList.className = 'menu-list';
  all.append(allList);
  allList.append(link(byId.get('home'), 'Start: the live chart'));
  for (const group of GROUPS) {
    const views = VIEWS.filter((v) => v.group === group.id);
    const menu = document.createElement('details');
    menu.className = 'menu menu-group';
    menu.dataset.group = group.id;
    const summary = document.createElement('summary');
    summary.textContent = group.label;
    const list = document.createElement('div');
    list.className = 'menu-list';
    const heading = document.createElement('p');
    heading.className = 'menu-source';
    heading.textContent = group.source;
    list.append(heading, ...views.map((v) => link(v)));
    menu.append(summary, list);
    nav.append(menu);
    const h = document.createElement('p');
    h.className = 'menu-source';
    h.textContent = `${group.label} · ${group.source}`;
    allList.append(h, ...views.map((v) => link(v)));
  }
  nav.prepend(all);
  // one menu of the header open at a time; a click elsewhere, Escape, a choice or the
  // keyboard's focus leaving it closes it
  const header = nav.closest('header') ?? nav;
  const menus = [...header.querySelectorAll('details')];
  for (const m of menus) {
    m.addEventListener('toggle', () => m.open && menus.forEach((o) => o !== m && (o.open = false)));
    m.addEventListener('focusout', (e) => e.relatedTarget && !m.contains(e.relatedTarget) && (m.open = false));
  }
  document.addEventListener('click', (e) => menus.forEach((m) => !m.contains(e.target) && (m.open = false)));
  document.addEventListener('keydown', (e) => e.key === 'Escape' && menus.forEach((m) => (m.open = false)));
  foldWhenCrowded(header);
  return menus;
}

/** The header's menus, one per source, fold into one "Views" menu whenever they do not
 * fit beside the name and the display menu (a narrow window, a large text size): the
 * header never scrolls sideways and nothing is drawn over anything. */
function foldWhenCrowded(header) {
  const bar = header.querySelector('.bar');
  const fit = () => {
    header.classList.remove('folded');
    const crowded = bar.scrollWidth > bar.clientWidth + 1;
    header.classList.toggle('folded', crowded);
  };
  new ResizeObserver(fit).observe(bar);
  document.addEventListener('freshlab:appearance', fit);
  fit();
}

export class Router {
  constructor({ main, nav, core, client, state }) {
    Object.assign(this, { main, core, client, state });
    this.sections = new Map();
    this.panels = new Map();
    this.menus = buildNav(nav);
    document.addEventListener('click', (e) => {
      const a = e.target.closest('a[data-view]');
      if (!a || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      e.preventDefault();
      this.go(a.dataset.view, a.dataset.params ? new Map(JSON.parse(a.dataset.params)) : null);
    });
    state.onNavigate = () => this.show(requestedView(state));
  }

  /** Opens view `id` as a new history entry (`params`: a panel's parameters to carry). */
  go(id, params = null) {
    for (const m of this.menus) m.open = false;
    this.state.navigate(id, new Set(byId.get(id).panels.map((p) => p.id)), params);
    this.show({ id });
    window.scrollTo(0, 0);
    this.main.focus({ preventScroll: true });
  }

  show({ id, unknown }) {
    const view = byId.get(id);
    for (const [other, section] of this.sections) section.hidden = other !== id;
    if (!this.sections.has(id)) this.sections.set(id, this.build(view));
    this.state.visible = new Set(view.panels.map((p) => p.id));
    document.title = id === 'home' ? 'Freshlab — crawler revisit policies under politeness' : `${view.title} — Freshlab`;
    for (const a of document.querySelectorAll('a[data-view]')) {
      if (a.dataset.view === id) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
    for (const m of this.menus) m.classList.toggle('current', Boolean(view.group) && m.dataset.group === view.group);
    const notice = this.main.querySelector('.notice');
    notice.hidden = !unknown;
    if (unknown) notice.textContent = `Nothing here is called “${unknown}”: this is the start. The views are ${VIEWS.map((v) => v.id).join(', ')}.`;
    document.documentElement.dataset.view = id;
    revealCurrentTab(this.sections.get(id));
    document.dispatchEvent(new Event('freshlab:view'));
  }

  /** A view's section: title, its source's other views, its panels, its explanation. */
  build(view) {
    const section = document.createElement('section');
    section.className = `view view-${view.id}`;
    section.setAttribute('aria-labelledby', `${view.id}-title`);
    const group = GROUPS.find((g) => g.id === view.group);
    const siblings = VIEWS.filter((v) => v.group && v.group === view.group);
    const tabs = siblings.length > 1 ? `<nav class="tabs" aria-label="${group.label}">${siblings.map((v) => `<a href="?view=${v.id}" data-view="${v.id}"${v.id === view.id ? ' aria-current="page"' : ''}>${v.title}</a>`).join('')}</nav>` : '';
    const source = group ? `<p class="crumb">${group.label} · <span class="source">${view.source}</span></p>` : '';
    // the chart comes first: a view's explanation follows its panels (the start's short
    // question stays above its chart)
    const home = view.id === 'home';
    section.innerHTML = `${source}<h1 id="${view.id}-title">${home ? 'How much freshness does politeness cost?' : view.title}</h1>${tabs}${home ? `<div class="lede">${view.lede}</div>` : ''}`;
    for (const spec of view.panels) {
      const panel = document.createElement('section');
      panel.className = 'panel';
      panel.id = spec.id;
      panel.setAttribute('aria-labelledby', `${spec.id}-heading`);
      panel.innerHTML = `<h2 id="${spec.id}-heading">${spec.heading}</h2>${spec.intro ?? ''}`;
      section.append(panel);
      this.panels.set(spec.id, new ExperimentPanel(panel, { ...spec, label: spec.heading, name: spec.id }, this.core, this.client, this.state));
    }
    if (home) section.append(cards());
    else section.insertAdjacentHTML('beforeend', `<div class="lede">${view.lede}</div>`);
    this.main.append(section);
    return section;
  }
}

/** On a phone the sibling views scroll in one row: bring the current one into it. */
function revealCurrentTab(section) {
  const tabs = section.querySelector('.tabs');
  const current = tabs?.querySelector('[aria-current="page"]');
  if (!current || tabs.scrollWidth <= tabs.clientWidth) return;
  tabs.scrollLeft = current.offsetLeft - tabs.offsetLeft - (tabs.clientWidth - current.offsetWidth) / 2;
}

/** The start's map of every view, by source. */
function cards() {
  const wrap = document.createElement('section');
  wrap.className = 'cards-by-source';
  wrap.setAttribute('aria-labelledby', 'all-views');
  wrap.innerHTML = '<h2 id="all-views">Every experiment, by source</h2>';
  for (const group of GROUPS) {
    const block = document.createElement('div');
    block.className = 'card-group';
    block.innerHTML = `<h3>${group.label} <span class="source">${group.source}</span></h3>`;
    const list = document.createElement('ul');
    list.className = 'cards';
    for (const v of VIEWS.filter((x) => x.group === group.id)) {
      const li = document.createElement('li');
      li.append(link(v));
      li.insertAdjacentHTML('beforeend', `<p>${v.card}</p><p class="source">${v.source}</p>`);
      list.append(li);
    }
    block.append(list);
    wrap.append(block);
  }
  return wrap;
}
