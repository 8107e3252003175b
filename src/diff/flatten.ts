/**
 * Flattens an object into `path -> value` leaves for field-level comparison.
 * List items that are mappings with a unique string `name` are addressed by
 * it (`containers[cloud-controller-manager]`), so reordering or inserting an
 * item does not show as a change of every later index; other items by index.
 */
export function flatten(value: unknown, prefix = '', out: Map<string, unknown> = new Map()): Map<string, unknown> {
  if (Array.isArray(value)) {
    if (value.length === 0) {
      out.set(prefix, []);
      return out;
    }
    const names = value.map((v) => (isObject(v) && typeof v.name === 'string' ? v.name : undefined));
    const byName = names.every((n) => n !== undefined) && new Set(names).size === names.length;
    value.forEach((item, i) => flatten(item, `${prefix}[${byName ? names[i] : i}]`, out));
    return out;
  }
  if (isObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) {
      out.set(prefix, {});
      return out;
    }
    for (const key of keys) {
      const segment = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? key : JSON.stringify(key);
      flatten(value[key], prefix ? (segment.startsWith('"') ? `${prefix}[${segment}]` : `${prefix}.${segment}`) : segment, out);
    }
    return out;
  }
  out.set(prefix, value);
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
