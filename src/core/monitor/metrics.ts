// A small metric registry and its Prometheus text exposition (format 0.0.4): gauges, counters and
// histograms, each family with its HELP and TYPE, its series keyed by label values. Label values
// are escaped as the format says (backslash, double quote, line feed); names are checked when a
// family is declared. Series exist only for what the exporter configures (providers, interfaces,
// query files and requests): `retain` drops the rest, so memory stays flat. Plain data, no I/O.

export type MetricType = 'gauge' | 'counter' | 'histogram';

export type Labels = Readonly<Record<string, string>>;

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** An unpaired surrogate: JavaScript text that is not Unicode (UTF-8 has no bytes for it). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A value with none of these is written as it is (the common case: one test, no copy). */
const NEEDS_ESCAPE = /[\\"\n\uD800-\uDFFF]/;

/** `v` as the UTF-8 text will carry it: each lone surrogate U+FFFD (String.prototype.toWellFormed). */
export function wellFormed(v: string): string {
  return v.replace(LONE_SURROGATE, '\uFFFD');
}

/** A label value as the text format writes it: well-formed, then `\` `"` and line feeds escaped. */
export function escapeLabelValue(v: string): string {
  if (!NEEDS_ESCAPE.test(v)) return v;
  return wellFormed(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** HELP text: `\` and line feeds escaped. */
export function escapeHelp(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

/** A sample value as the text format writes it (NaN, +Inf, -Inf spelled as Prometheus reads them). */
export function formatValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return String(v);
}

interface Series {
  readonly labels: Labels;
  readonly text: string;
  value: number;
  /** Histogram: the count per bucket (cumulative when written), the sum and the count. */
  buckets?: number[];
  sum?: number;
  count?: number;
}

export class Family {
  private readonly series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: MetricType,
    readonly labelNames: readonly string[],
    readonly buckets: readonly number[] = [],
  ) {
    if (!NAME.test(name)) throw new RangeError(`bad metric name ${name}`);
    for (const l of labelNames) if (!LABEL.test(l) || l.startsWith('__') || l === 'le') throw new RangeError(`bad label name ${l}`);
  }

  /** The labels as the text writes them: the series' key (equal texts are one series). */
  private textOf(labels: Labels): string {
    return this.labelNames.map((l) => `${l}="${escapeLabelValue(labels[l] ?? '')}"`).join(',');
  }

  private get(labels: Labels): Series {
    const text = this.textOf(labels);
    let s = this.series.get(text);
    if (!s) {
      s = { labels: { ...labels }, text, value: 0 };
      if (this.type === 'histogram') {
        s.buckets = this.buckets.map(() => 0);
        s.sum = 0;
        s.count = 0;
      }
      this.series.set(text, s);
    }
    return s;
  }

  set(labels: Labels, value: number): void {
    this.get(labels).value = value;
  }

  inc(labels: Labels, by = 1): void {
    this.get(labels).value += by;
  }

  observe(labels: Labels, value: number): void {
    const s = this.get(labels);
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]) s.buckets![i]++;
    s.sum! += value;
    s.count!++;
  }

  /** Removes the series of these labels (a value that is no longer known). */
  remove(labels: Labels): void {
    this.series.delete(this.textOf(labels));
  }

  /** Keeps only the series `keep` accepts. */
  retain(keep: (labels: Labels) => boolean): void {
    for (const [k, s] of this.series) if (!keep(s.labels)) this.series.delete(k);
  }

  get size(): number {
    return this.series.size;
  }

  values(): { labels: Labels; value: number }[] {
    return [...this.series.values()].map((s) => ({ labels: s.labels, value: s.value }));
  }

  render(out: string[]): void {
    out.push(`# HELP ${this.name} ${escapeHelp(this.help)}\n# TYPE ${this.name} ${this.type}\n`);
    for (const s of this.series.values()) {
      if (this.type !== 'histogram') {
        out.push(`${this.name}${s.text ? `{${s.text}}` : ''} ${formatValue(s.value)}\n`);
        continue;
      }
      const sep = s.text ? ',' : '';
      for (let i = 0; i < this.buckets.length; i++) out.push(`${this.name}_bucket{${s.text}${sep}le="${formatValue(this.buckets[i])}"} ${s.buckets![i]}\n`);
      out.push(`${this.name}_bucket{${s.text}${sep}le="+Inf"} ${s.count}\n`);
      const braces = s.text ? `{${s.text}}` : '';
      out.push(`${this.name}_sum${braces} ${formatValue(s.sum!)}\n${this.name}_count${braces} ${s.count}\n`);
    }
  }
}

export class Registry {
  private readonly families: Family[] = [];

  family(name: string, help: string, type: MetricType, labelNames: readonly string[], buckets?: readonly number[]): Family {
    if (this.families.some((f) => f.name === name)) throw new RangeError(`metric ${name} declared twice`);
    const f = new Family(name, help, type, labelNames, buckets);
    this.families.push(f);
    return f;
  }

  all(): readonly Family[] {
    return this.families;
  }

  /** Every family in the text exposition format 0.0.4. */
  render(): string {
    const out: string[] = [];
    for (const f of this.families) f.render(out);
    return out.join('');
  }
}

/** The content type of the text exposition format. */
export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
