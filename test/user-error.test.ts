/**
 * One user-error type: its kind decides the exit code and how the command
 * line prints it; a spec error carries its issues; anything else is internal.
 */
import { SpecValidationError } from '../src/cluster-spec/errors';
import { reportError } from '../src/cli/report-error';
import { isUserError, UserError, UserErrorKind } from '../src/util/user-error';

/** What reportError prints and returns for an error. */
function reported(e: unknown, writes = true): { code: number; err: string } {
  let err = '';
  const code = reportError(e, { out: () => undefined, err: (t) => (err += t) }, {}, writes);
  return { code, err };
}

describe('UserError', () => {
  test('GIVEN each kind a command reports THEN its exit code and line', () => {
    const kinds: [UserErrorKind, number, string][] = [
      ['usage', 2, 'error: --jobs "x" is not a number\n'],
      ['import', 1, 'error: --jobs "x" is not a number; nothing was written\n'],
      ['input', 1, 'error: --jobs "x" is not a number\n'],
      ['output', 1, 'error: --jobs "x" is not a number\n'],
      ['environment', 1, 'error: --jobs "x" is not a number\n'],
    ];
    expect(kinds.map(([kind]) => [kind, ...Object.values(reported(new UserError(kind, '--jobs "x" is not a number')))])).toEqual(
      kinds.map(([kind, code, err]) => [kind, code, err]),
    );
  });

  test('GIVEN a spec error THEN every issue is listed, and "nothing was written" only for a command that writes', () => {
    const e = new SpecValidationError([{ file: 'a.yaml', path: 'spec.platform', message: 'is required' }]);
    expect([e.kind, isUserError(e, 'spec'), e.name]).toEqual(['spec', true, 'SpecValidationError']);
    expect(reported(e)).toEqual({ code: 1, err: 'error: 1 problem found; nothing was written\n  a.yaml: spec.platform: is required\n' });
    expect(reported(e, false).err).toBe('error: 1 problem found\n  a.yaml: spec.platform: is required\n');
  });

  test('GIVEN the kinds a command turns into its own words (cloud-config, init) or a plain Error THEN reported as internal (exit 3)', () => {
    for (const e of [new UserError('cloud-config', 'bad key', 3), new UserError('init', 'bad platform'), new Error('boom')]) {
      expect(reported(e).code).toBe(3);
    }
    expect(new UserError('cloud-config', 'bad key', 3).line).toBe(3);
  });

  test('GIVEN isUserError with kinds THEN only those kinds match; with none, any user error', () => {
    const e = new UserError('output', 'locked');
    expect([isUserError(e), isUserError(e, 'output', 'input'), isUserError(e, 'usage'), isUserError(new Error('x'))]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});
