/**
 * Progress of a long synth on standard error: on a terminal one line
 * redrawn in place, elsewhere (a CI log) a line every few seconds. Pure: the
 * clock and the terminal test are given, so tests run it without sleeping.
 */

/** What synth tells of its progress (SynthOptions.progress). */
export interface SynthProgress {
  /** The run starts: this many spec files to load. */
  start(specFiles: number): void;
  /** A cluster was loaded and validated. */
  loaded(): void;
  /** A cluster's folder is settled: rendered, found unchanged, or kept. */
  rendered(): void;
  /** Everything is rendered; the output is being written. */
  writing(): void;
}

/** Where a progress line goes and how time passes. */
export interface ProgressOptions {
  /** Writes to standard error. */
  readonly write: (text: string) => void;
  /** Whether standard error is a terminal (a line redrawn in place) or not (a line every `everyMs`). */
  readonly tty: boolean;
  /** Milliseconds since some fixed point. */
  readonly now: () => number;
  /**
   * Between two lines when not on a terminal.
   *
   * @default 5000
   */
  readonly everyMs?: number;
  /**
   * Between two redraws on a terminal (and before the first).
   *
   * @default 200
   */
  readonly redrawMs?: number;
}

/** A SynthProgress that prints. Call `finish` when the run ends (it clears a terminal line). */
export class ProgressLine implements SynthProgress {
  private total = 0;
  private loadedCount = 0;
  private renderedCount = 0;
  private phase: 'loading' | 'writing' = 'loading';
  private readonly started: number;
  private last: number;
  private drawn = false;

  constructor(private readonly options: ProgressOptions) {
    this.started = options.now();
    this.last = this.started;
  }

  start(specFiles: number): void {
    this.total = specFiles;
  }

  loaded(): void {
    this.loadedCount++;
    this.tick(false);
  }

  rendered(): void {
    this.renderedCount++;
    this.tick(false);
  }

  writing(): void {
    this.phase = 'writing';
    this.tick(false);
  }

  /** Ends the progress: a terminal line is cleared so the command's own last line stands alone. */
  finish(): void {
    if (this.options.tty && this.drawn) {
      this.options.write('\r\x1b[K');
    }
    this.drawn = false;
  }

  /** The progress as a line, without its end. */
  line(): string {
    const seconds = (this.options.now() - this.started) / 1000;
    const rate = seconds > 0 ? Math.round(this.renderedCount / seconds) : 0;
    const of = this.total > 0 ? `/${this.total}` : '';
    const writing = this.phase === 'writing' ? ', writing the output' : '';
    return `synth: ${this.loadedCount}${of} clusters loaded, ${this.renderedCount} rendered (${rate}/s)${writing}, ${seconds.toFixed(0)} s`;
  }

  private tick(force: boolean): void {
    const now = this.options.now();
    const every = this.options.tty ? (this.options.redrawMs ?? 200) : (this.options.everyMs ?? 5000);
    if (!force && now - this.last < every) {
      return;
    }
    this.last = now;
    this.drawn = true;
    this.options.write(this.options.tty ? `\r${this.line()}\x1b[K` : `${this.line()}\n`);
  }
}
