/** The facts of a name the feed filters on, computed once when the row is created. */
export interface LabelFacts {
  tld: string;
  label: string;
  length: number;
  has_hyphen: number;
  has_digit: number;
}

/** `name` is a zone name `label.tld` (tracked TLDs are one label, so the first dot splits it). */
export function labelFacts(name: string): LabelFacts {
  const dot = name.indexOf('.');
  const label = name.slice(0, dot);
  return {
    tld: name.slice(dot + 1),
    label,
    length: label.length,
    has_hyphen: label.includes('-') ? 1 : 0,
    has_digit: /\d/.test(label) ? 1 : 0,
  };
}
