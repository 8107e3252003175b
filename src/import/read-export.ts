import * as fs from 'fs';
import * as path from 'path';
import { LineCounter, parseAllDocuments } from 'yaml';
import { tagRefusal } from '../secrets/yaml-findings';
import { boundedData, nestingRefusal } from '../util/bounded-yaml';
import { ExportedObject } from './live-cluster';
import { UserError } from '../util/user-error';

/** Largest export file read. */
const MAX_EXPORT_BYTES = 8 * 1024 * 1024;

/** The file each object read by {@link readExport} came from (a List's items too). */
const SOURCES = new WeakMap<object, string>();

function remember(o: ExportedObject, file: string): void {
  SOURCES.set(o, file);
  const items: readonly unknown[] = Array.isArray(o.items) ? o.items : [];
  for (const item of items) {
    if (item && typeof item === 'object') {
      remember(item, file);
    }
  }
}

/** The file an exported object was read from; undefined for an object {@link readExport} did not read. */
export function exportSource(o: ExportedObject): string | undefined {
  return SOURCES.get(o);
}

/**
 * Reads the objects of an `oc get -o yaml` (or `-o json`) export: one file,
 * or every `.yaml`, `.yml` and `.json` file of a folder (not recursive), in
 * name order; multi-document files and `List`s are accepted.
 */
export function readExport(from: string): ExportedObject[] {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(from);
  } catch {
    throw new UserError('import', `${from} does not exist; pass the folder (or file) holding the oc get -o yaml output`);
  }
  const files = stat.isDirectory()
    ? fs
        .readdirSync(from)
        .filter((f) => /\.(ya?ml|json)$/i.test(f))
        .sort()
        .map((f) => path.join(from, f))
    : [from];
  if (files.length === 0) {
    throw new UserError('import', `${from} holds no .yaml, .yml or .json file`);
  }
  const objects: ExportedObject[] = [];
  for (const file of files) {
    // a FIFO or device would block the read forever: only regular files (symbolic links followed) are read
    const fileStat = fs.statSync(file);
    if (!fileStat.isFile()) {
      throw new UserError(
        'import',
        `${file} is not a regular file (a FIFO, socket, device or folder); export with oc get -o yaml > file and pass that folder`,
      );
    }
    if (fileStat.size > MAX_EXPORT_BYTES) {
      throw new UserError('import', `${file} is over ${MAX_EXPORT_BYTES} bytes; export only the objects the import reads`);
    }
    const lines = new LineCounter();
    const docs = parseAllDocuments(fs.readFileSync(file, 'utf8'), { lineCounter: lines });
    for (const doc of Array.isArray(docs) ? docs : [docs]) {
      if (doc.errors.length > 0) {
        throw new UserError(
          'import',
          `${file}: ${nestingRefusal(doc, 'exported object') ?? `not YAML or JSON: ${doc.errors[0].message.split('\n')[0]}`}`,
        );
      }
      const tagged = tagRefusal(doc, lines, 'an exported object');
      if (tagged) {
        throw new UserError('import', `${file}: ${tagged}`);
      }
      const read = boundedData(doc, 'exported object');
      if ('refused' in read) {
        throw new UserError('import', `${file}: ${read.refused}`);
      }
      const value = read.data;
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        remember(value, file);
        objects.push(value);
      }
    }
  }
  return objects;
}
