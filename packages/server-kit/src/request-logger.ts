import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

type LevelName = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
type LogMethod = (...args: unknown[]) => void;

/**
 * A request's logger that becomes pino's child (with the request id bound) on its first line.
 * Fastify makes a child per request, and pino formats and redacts its bindings when it is made
 * (~0.3 µs); most requests write no line of their own (the completed line is the server
 * logger's, see OneLinePerRequest), so they no longer pay for it. A line at a level the logger
 * leaves out makes no child either. Every line written carries the request id as before.
 */
export class LazyRequestLogger {
  readonly #parent: Logger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  #child: Logger | undefined;

  constructor(parent: Logger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  /** pino's child, made the first time a line or a child of this logger needs it. */
  get #logger(): Logger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  get level(): string {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#logger.level = level;
  }

  isLevelEnabled(level: string): boolean {
    if (this.#child) return this.#child.isLevelEnabled(level);
    const ownLevel = this.#options.level;
    if (ownLevel === undefined) return this.#parent.isLevelEnabled(level);
    const values = this.#parent.levels.values;
    const wanted = values[level];
    const threshold = values[ownLevel];
    return wanted !== undefined && threshold !== undefined && wanted >= threshold;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger.child(bindings, options);
  }

  #write(level: LevelName, args: unknown[]): void {
    if (this.#child === undefined && !this.isLevelEnabled(level)) return;
    (this.#logger as unknown as Record<LevelName, LogMethod>)[level](...args);
  }

  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }

  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }

  info(...args: unknown[]): void {
    this.#write('info', args);
  }

  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }

  error(...args: unknown[]): void {
    this.#write('error', args);
  }

  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }

  silent(): void {}
}

/** Fastify's `childLoggerFactory` for a pino logger: each request's logger made lazily. */
export const lazyRequestLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) => new LazyRequestLogger(logger as Logger, bindings, options) as unknown as FastifyBaseLogger;
