import * as fs from 'fs';
import { currentKernelThread, parseThreadStat, startSlot, threadEnded } from '../src/util/kernel-thread';

// A render worker is known to the pool by its kernel thread: the id and the
// start time of proc_pid_stat(5) (fields 1 and 22). The id alone could name
// another thread once the kernel reuses it.

/** A stat line: fields 1 (id) and 2 (name), then fields 3 to 52, field 22 being `start`. */
function statLine(id: number, name: string, start: number): string {
  const rest = Array.from({ length: 50 }, (_v, i) => (i === 0 ? 'S' : i === 22 - 3 ? String(start) : String(i + 3)));
  return `${id} (${name}) ${rest.join(' ')}\n`;
}

describe('a kernel thread from its stat line', () => {
  test('the id and the start time are fields 1 and 22, counted after the last parenthesis of the name', () => {
    // GIVEN a thread whose name holds spaces and parentheses
    const line = statLine(4242, 'node (a) b) c', 123456);
    // WHEN it is read
    // THEN the fields after the name are counted from its last parenthesis
    expect(parseThreadStat(line)).toEqual({ id: 4242, start: 123456 });
  });

  test('a line that is not a stat line gives no thread', () => {
    expect(parseThreadStat('')).toBeUndefined();
    expect(parseThreadStat('4242 node S 1')).toBeUndefined();
    expect(parseThreadStat('x (node) S 1')).toBeUndefined();
    expect(parseThreadStat('4242 (node) S 1 2')).toBeUndefined();
  });

  test('a start time is kept as its remainder by 2^31, to fit a 32-bit slot', () => {
    expect(startSlot(123)).toBe(123);
    expect(startSlot(2 ** 31 + 5)).toBe(5);
  });
});

describe('whether a thread has ended', () => {
  const files = (entries: Record<string, string>) => (file: string): string => {
    if (!(file in entries)) {
      throw Object.assign(new Error(`ENOENT: no such file or directory, open '${file}'`), { code: 'ENOENT' });
    }
    return entries[file];
  };

  test('a thread whose id is no longer the process\'s has ended', () => {
    expect(threadEnded(4242, 100, files({}))).toBe(true);
  });

  test('a thread found with the start time it had is running', () => {
    expect(threadEnded(4242, 100, files({ '/proc/self/task/4242/stat': statLine(4242, 'node', 100) }))).toBe(false);
  });

  test('an id the kernel gave to a new thread (another start time) is an ended thread', () => {
    // GIVEN a worker's thread 4242 that started at tick 100, and a thread of the same id that started later
    const read = files({ '/proc/self/task/4242/stat': statLine(4242, 'node', 7100) });
    // WHEN the pool looks for it
    // THEN the worker's thread has ended
    expect(threadEnded(4242, 100, read)).toBe(true);
  });

  test('start times past 2^31 ticks are compared as kept', () => {
    const read = files({ '/proc/self/task/4242/stat': statLine(4242, 'node', 2 ** 31 + 100) });
    expect(threadEnded(4242, 100, read)).toBe(false);
  });

  (fs.existsSync('/proc/thread-self/stat') ? test : test.skip)('this process\'s main thread, as the kernel gives it, is running (Linux)', () => {
    // GIVEN the calling thread (jest's main thread: its id is the process's)
    const self = currentKernelThread();
    // THEN the kernel's files agree with it
    expect(self?.id).toBe(process.pid);
    expect(threadEnded(process.pid, startSlot(self!.start))).toBe(false);
    expect(threadEnded(process.pid, startSlot(self!.start) + 1)).toBe(true);
  });

  test('where there is no /proc/thread-self, there is no thread to give', () => {
    expect(currentKernelThread(files({}))).toBeUndefined();
  });
});
