import * as fs from 'fs';

/**
 * A thread as the Linux kernel knows it: its id and the time it started.
 * An id alone does not name a thread for long: the kernel hands an ended
 * thread's id to a new thread or process once its ids wrap around
 * (`/proc/sys/kernel/pid_max`), so a thread is one id with one start time.
 */
export interface KernelThread {
  /** The thread's id (`gettid`), field 1 of its `stat` file. */
  readonly id: number;
  /**
   * When it started, in clock ticks after the system booted: field 22
   * (`starttime`) of its `stat` file (proc_pid_stat(5)). A thread's own:
   * `/proc/<pid>/task/<tid>/stat` is the kernel's `proc_tid_stat`, which
   * reports the one task (torvalds/linux `fs/proc/array.c`, `do_task_stat`
   * with `whole` 0).
   */
  readonly start: number;
}

/** Reads a file as text (`fs.readFileSync`); throws when there is none. */
export type ReadText = (file: string) => string;

const readText: ReadText = (file) => fs.readFileSync(file, 'latin1');

/**
 * The id and start time from a `/proc/.../stat` line. The second field is
 * the command's name in parentheses, and the name may itself hold spaces
 * and parentheses, so the fields after it are counted from the last `)`:
 * the state (field 3) comes first there, the start time (field 22) 20th.
 *
 * @returns the thread, or undefined when the line is not a stat line
 */
export function parseThreadStat(line: string): KernelThread | undefined {
  const close = line.lastIndexOf(')');
  const open = line.indexOf(' (');
  if (close < 0 || open < 0 || open > close) {
    return undefined;
  }
  const id = Number(line.slice(0, open));
  const start = Number(line.slice(close + 2).split(' ')[22 - 3]);
  return Number.isSafeInteger(id) && id > 0 && Number.isSafeInteger(start) && start >= 0 ? { id, start } : undefined;
}

/**
 * The calling thread (`/proc/thread-self/stat`: Linux 3.17 and later,
 * proc(5)); undefined where there is no such file.
 */
export function currentKernelThread(read: ReadText = readText): KernelThread | undefined {
  try {
    return parseThreadStat(read('/proc/thread-self/stat'));
  } catch {
    return undefined;
  }
}

/**
 * Whether a thread of this process has ended: its id is no longer among
 * the process's threads (`/proc/self/task/<id>`), or it is, but with
 * another start time (the kernel gave the id to a new thread). Start times
 * are compared by {@link startSlot}, as they are kept in a shared 32-bit
 * slot.
 */
export function threadEnded(id: number, startInSlot: number, read: ReadText = readText): boolean {
  let line: string;
  try {
    line = read(`/proc/self/task/${id}/stat`);
  } catch {
    return true;
  }
  const now = parseThreadStat(line);
  return now === undefined || startSlot(now.start) !== startInSlot;
}

/**
 * A start time as it fits a signed 32-bit slot of a shared array: its
 * remainder by 2^31 (at 100 ticks a second, 2^31 ticks are 248 days of
 * uptime, and two threads of one run are never that far apart).
 */
export function startSlot(start: number): number {
  return start % 2 ** 31;
}
