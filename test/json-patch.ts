/** A small RFC 6902 JSON patch applier for tests of the Cluster API patches. */

/** RFC 6902 add/remove/replace/test on a copy; a failing `test` throws, as the API server rejects the whole patch. */
export function applyPatch(doc: unknown, ops: { op: string; path: string; value?: unknown }[]): any {
  const out = JSON.parse(JSON.stringify(doc));
  for (const op of ops) {
    const parts = op.path
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = parts.pop()!;
    const parent = parts.reduce((o: any, k: string) => (o === undefined ? undefined : o[k]), out);
    if (parent === undefined || (op.op !== 'add' && !(last in parent))) {
      throw new Error(`path ${op.path} does not exist`);
    }
    if (op.op === 'test') {
      if (JSON.stringify(parent[last]) !== JSON.stringify(op.value)) {
        throw new Error(`test failed at ${op.path}`);
      }
    } else if (op.op === 'replace') {
      parent[last] = op.value;
    } else if (op.op === 'remove') {
      if (Array.isArray(parent)) {
        parent.splice(Number(last), 1);
      } else {
        delete parent[last];
      }
    } else if (Array.isArray(parent)) {
      parent.splice(last === '-' ? parent.length : Number(last), 0, op.value);
    } else {
      parent[last] = op.value;
    }
  }
  return out;
}
