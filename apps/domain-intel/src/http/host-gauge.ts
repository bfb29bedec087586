import { Gauge, type Registry } from 'prom-client';

/**
 * A gauge by `host` filled at each scrape from `read()` (one row per host). A scrape never fails
 * for it: when `read` does, the gauge keeps its last values.
 */
export function hostGauge<Row extends { host: string }>(options: {
  registry: Registry;
  name: string;
  help: string;
  read: () => Promise<Row[]>;
  valueFor: (row: Row) => number;
}): Gauge<'host'> {
  const { registry, name, help, read, valueFor } = options;
  return new Gauge({
    name,
    help,
    labelNames: ['host'],
    registers: [registry],
    async collect() {
      let rows: Row[];
      try {
        rows = await read();
      } catch {
        return;
      }
      this.reset();
      for (const row of rows) this.set({ host: row.host }, valueFor(row));
    },
  });
}
