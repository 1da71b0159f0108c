// A progress bar with time remaining and a cancel button.

function duration(ms) {
  if (!Number.isFinite(ms)) return '';
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

export class Progress {
  constructor(container, label) {
    this.element = document.createElement('div');
    this.element.className = 'progress';
    this.element.hidden = true;
    this.bar = document.createElement('progress');
    this.bar.max = 1;
    this.bar.value = 0;
    this.bar.setAttribute('aria-label', label);
    this.text = document.createElement('span');
    this.text.className = 'eta';
    this.cancel = document.createElement('button');
    this.cancel.type = 'button';
    this.cancel.textContent = 'Cancel';
    this.cancel.className = 'secondary';
    this.element.append(this.bar, this.text, this.cancel);
    container.append(this.element);
  }

  start(onCancel) {
    this.bar.value = 0;
    this.text.textContent = 'starting…';
    this.cancel.onclick = onCancel;
    this.element.hidden = false;
  }

  update(fraction, elapsedMs) {
    this.bar.value = fraction;
    const remaining = fraction > 0.02 ? (elapsedMs * (1 - fraction)) / fraction : NaN;
    const left = Number.isFinite(remaining) ? `, about ${duration(remaining)} left` : '';
    this.text.textContent = `${Math.round(100 * fraction)} % after ${duration(elapsedMs)}${left}`;
  }

  stop() {
    this.element.hidden = true;
    this.cancel.onclick = null;
  }
}
