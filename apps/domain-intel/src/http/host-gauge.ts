import { Gauge, type Registry } from 'prom-client';

/** One gauge by `host`: its name, help, and its value in a row. */
export interface HostGaugeSpec<Row> {
  name: string;
  help: string;
  valueFor: (row: Row) => number;
}

/**
 * Gauges by `host` filled at each scrape from the rows `read()` gives (one row per host), one
 * gauge per spec. The gauges of one scrape are collected side by side (prom-client asks every
 * metric at once), so they share one `read()` (a Redis or database read per scrape, not one per
 * gauge). A scrape never fails for them: when `read` does, the gauges keep their last values.
 */
export function hostGauges<Row extends { host: string }>(options: {
  registry: Registry;
  read: () => Promise<Row[]>;
  gauges: Array<HostGaugeSpec<Row>>;
}): void {
  const { registry, read, gauges } = options;
  let reading: Promise<Row[]> | undefined;
  const readOnce = () => {
    reading ??= read().finally(() => {
      reading = undefined;
    });
    return reading;
  };
  for (const { name, help, valueFor } of gauges) {
    new Gauge({
      name,
      help,
      labelNames: ['host'],
      registers: [registry],
      async collect() {
        let rows: Row[];
        try {
          rows = await readOnce();
        } catch {
          return;
        }
        this.reset();
        for (const row of rows) this.set({ host: row.host }, valueFor(row));
      },
    });
  }
}
