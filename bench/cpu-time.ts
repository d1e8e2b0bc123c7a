// CPU seconds spent so far, read from /proc (Linux): by each thread of this process, grouped by thread
// name (a worker's `name`, or Node's own names), and by a process group with its reaped children (a
// Dovecot master and the imap processes it forked). Two readings subtracted say who used the cores
// during a run, which a wall-clock figure cannot.
import { readdirSync, readFileSync } from 'node:fs';

const ticks = 100; // USER_HZ on Linux

// "pid (comm) state ppid pgrp … utime stime cutime cstime …": comm may hold spaces, so split after ')'.
function fields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** CPU seconds of each thread of this process that is alive now, summed by thread name. */
export function threadCpu(): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const name = readFileSync(`/proc/self/task/${tid}/comm`, 'latin1').trim();
      const f = fields(readFileSync(`/proc/self/task/${tid}/stat`, 'latin1'));
      const seconds = (Number(f[11]) + Number(f[12])) / ticks;
      byName.set(name, (byName.get(name) ?? 0) + seconds);
    } catch {
      // the thread ended while we looked
    }
  }
  return byName;
}

/** CPU seconds of the live processes of a group, plus what its leader's exited children used. */
export function groupCpu(pgid: number): number {
  let seconds = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const f = fields(readFileSync(`/proc/${entry}/stat`, 'latin1'));
      if (Number(f[2]) !== pgid) continue;
      seconds += (Number(f[11]) + Number(f[12])) / ticks;
      if (Number(entry) === pgid) seconds += (Number(f[13]) + Number(f[14])) / ticks;
    } catch {
      // exited while we looked
    }
  }
  return seconds;
}
