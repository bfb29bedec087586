import type { Counter, Histogram, Registry } from 'prom-client';

type Label = 'method' | 'route' | 'status';
type Labels = Record<Label, string>;

/** One method, route and status: its count, summed time and bucket counts (not cumulative). */
export interface RequestSeries {
  readonly labels: Labels;
  count: number;
  sumSeconds: number;
  readonly buckets: Float64Array;
}

interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/** What prom-client's registry reads from a metric: `get()` for the exposition, `reset()`. */
interface CollectedMetric {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  get(): Promise<{ name: string; help: string; type: string; values: MetricValue[]; aggregator: 'sum' }>;
  reset(): void;
}

/**
 * Request counts and latencies by method, route and status, counted in plain numbers and turned
 * into Prometheus samples only when /metrics is read. prom-client's own Counter and Histogram
 * convert, validate and hash the labels on every `inc` and `observe`, even through a labelled
 * child: on a light API call that was a few percent of its whole cost. The exposition is the
 * same (`<prefix>http_requests_total`, `<prefix>http_request_duration_seconds_bucket{le=…}`,
 * `_sum`, `_count`), registered in the given registry beside prom-client's metrics.
 */
export class RequestMetrics {
  readonly #series = new Map<string, RequestSeries>();
  readonly #bounds: readonly number[];

  constructor(registry: Registry, prefix: string, bounds: readonly number[]) {
    this.#bounds = bounds;
    const requestsName = `${prefix}http_requests_total`;
    const durationsName = `${prefix}http_request_duration_seconds`;
    this.#register(registry, {
      name: requestsName,
      help: 'HTTP requests by method, route and status',
      type: 'counter',
      values: () => [...this.#series.values()].map((series) => ({ labels: series.labels, value: series.count })),
    });
    this.#register(registry, {
      name: durationsName,
      help: 'HTTP request latency by method, route and status',
      type: 'histogram',
      values: () => [...this.#series.values()].flatMap((series) => this.#histogramValues(durationsName, series)),
    });
  }

  /** The series of one method, route and status (made on first use, then reused). */
  series(method: string, route: string, status: number): RequestSeries {
    const key = `${method} ${route} ${status}`;
    let series = this.#series.get(key);
    if (!series) {
      series = {
        labels: { method, route, status: String(status) },
        count: 0,
        sumSeconds: 0,
        buckets: new Float64Array(this.#bounds.length),
      };
      this.#series.set(key, series);
    }
    return series;
  }

  /** Counts one request of `seconds`. */
  observe(series: RequestSeries, seconds: number): void {
    series.count++;
    series.sumSeconds += seconds;
    const bounds = this.#bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (seconds <= bounds[i]!) {
        series.buckets[i]!++;
        return;
      }
    }
  }

  #histogramValues(name: string, series: RequestSeries): MetricValue[] {
    const values: MetricValue[] = [];
    let cumulative = 0;
    for (let i = 0; i < this.#bounds.length; i++) {
      cumulative += series.buckets[i]!;
      values.push({
        labels: { ...series.labels, le: this.#bounds[i]! },
        value: cumulative,
        metricName: `${name}_bucket`,
      });
    }
    values.push(
      { labels: { ...series.labels, le: '+Inf' }, value: series.count, metricName: `${name}_bucket` },
      { labels: series.labels, value: series.sumSeconds, metricName: `${name}_sum` },
      { labels: series.labels, value: series.count, metricName: `${name}_count` },
    );
    return values;
  }

  #register(
    registry: Registry,
    metric: { name: string; help: string; type: 'counter' | 'histogram'; values: () => MetricValue[] },
  ): void {
    const { name, help, type, values } = metric;
    const collected: CollectedMetric = {
      name,
      help,
      type,
      aggregator: 'sum',
      get: async () => ({ name, help, type, values: values(), aggregator: 'sum' }),
      reset: () => this.#series.clear(),
    };
    // The registry only reads name, type, get() and reset() of what it holds.
    registry.registerMetric(collected as unknown as Counter | Histogram);
  }
}
