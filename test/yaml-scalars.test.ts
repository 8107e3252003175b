import { parse, stringify } from 'yaml';
import { EMITTER_YAML_OPTIONS, emitYaml } from '../src/gitops/yaml-emitter';

// A string that YAML 1.1 or YAML 1.2 (kustomize, Argo CD, Flux) reads as another type is written quoted.

const OTHER_TYPES = [
  '0o17',
  '0o0',
  '0x1F',
  '1_000',
  '017',
  '+12',
  '0b101', // integers
  'yes',
  'no',
  'on',
  'off',
  'y',
  'n',
  'Y',
  'N',
  'True',
  'FALSE', // booleans
  '~',
  'null',
  'NULL',
  '', // null
  '1e3',
  '1e+3',
  '.5',
  '1.',
  '.inf',
  '-.inf',
  '+.inf',
  '.nan', // floats
  '1:20',
  '190:20:30', // sexagesimal
  '2001-12-14', // timestamp
];

describe('strings read as another type', () => {
  test.each(OTHER_TYPES)('%j is written double-quoted, and read back as that string in YAML 1.1 and 1.2', (value) => {
    // GIVEN an object holding the string
    const object = { data: { key: value } };
    // WHEN it is written, by the fast emitter and by the fallback
    const fast = emitYaml(object);
    const fallback = stringify(object, EMITTER_YAML_OPTIONS);
    // THEN both quote it, and both YAML versions read the string back
    expect(fast).toBe(`data:\n  key: ${JSON.stringify(value)}\n`);
    expect(fallback).toBe(fast);
    expect(parse(fast, { version: '1.1' })).toEqual(object);
    expect(parse(fast, { version: '1.2' })).toEqual(object);
  });

  test('numbers, booleans and null are written as themselves', () => {
    expect(emitYaml({ a: 15, b: 1.5, c: true, d: null, e: 'x' })).toBe('a: 15\nb: 1.5\nc: true\nd: null\ne: x\n');
  });
});
