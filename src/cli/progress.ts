import type { Io } from './io.js';

/** How often the bar is drawn again at most (ms). */
const REDRAW_MS = 100;

/**
 * A progress bar on stderr while a command works through many files, drawn
 * only when stderr is a terminal (Io.errTty): none when piped or captured.
 * Lines printed while it shows go through `step`, which clears the bar first.
 */
export class Progress {
  private done = 0;
  private shown = false;
  private last = 0;
  private readonly on: boolean;

  constructor(
    private readonly io: Io,
    private readonly total: number,
  ) {
    this.on = io.errTty === true && total > 1;
  }

  /** One file done: `print` writes its lines, then the bar is drawn again. */
  step(print?: () => void): void {
    this.done++;
    if (this.shown && print) this.clear();
    print?.();
    if (!this.on) return;
    const now = Date.now();
    if (this.shown && now - this.last < REDRAW_MS && this.done < this.total) return;
    this.last = now;
    this.draw();
  }

  /** The work is over: the bar goes away. */
  end(): void {
    if (this.shown) this.clear();
  }

  private clear(): void {
    this.io.err('\r\x1b[K');
    this.shown = false;
  }

  private draw(): void {
    const width = 30;
    const filled = Math.round((this.done / this.total) * width);
    this.io.err(`\r\x1b[K[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${this.done}/${this.total} files`);
    this.shown = true;
  }
}
