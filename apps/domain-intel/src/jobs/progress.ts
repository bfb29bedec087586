import { Presets, SingleBar } from 'cli-progress';

/** How a job tells about its steps: a bar on a terminal, log lines elsewhere, nothing in tests. */
export interface JobProgress {
  /** A new step; `total` when its size is known. */
  step(label: string, total?: number): void;
  update(done: number, total?: number): void;
  /** A line for the person (or log) watching. */
  note(message: string): void;
  finish(): void;
}

export const silentProgress: JobProgress = { step() {}, update() {}, note() {}, finish() {} };

export function logProgress(log: (message: string) => void): JobProgress {
  return { step: (label) => log(label), update() {}, note: log, finish() {} };
}

/** A progress bar per step on stderr when it is a terminal, plain lines otherwise. */
export function terminalProgress(stream: NodeJS.WriteStream = process.stderr): JobProgress {
  if (!stream.isTTY) return logProgress((message) => stream.write(`${message}\n`));
  let bar: SingleBar | undefined;
  const stop = () => {
    bar?.stop();
    bar = undefined;
  };
  return {
    step(label, total) {
      stop();
      bar = new SingleBar(
        { format: `${label.padEnd(34)} {bar} {value}/{total}`, stream, hideCursor: true },
        Presets.shades_classic,
      );
      bar.start(total ?? 0, 0);
    },
    update(done, total) {
      if (total !== undefined) bar?.setTotal(total);
      bar?.update(done);
    },
    note(message) {
      stop();
      stream.write(`${message}\n`);
    },
    finish: stop,
  };
}
