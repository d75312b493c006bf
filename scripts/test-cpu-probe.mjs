// Loaded into every test process when TEST_CPU_REPORT is set (scripts/test.mjs):
// on exit it appends the process's CPU time, its waited-for children's (the
// svc processes an end-to-end file starts, openssl, zbarimg …) and its wall
// time to the file named by SVC_TEST_CPU_FILE, one JSON line per test file.
// Read from /proc (Linux): Node gives no CPU time of children.
import fs from 'node:fs';

const out = process.env.SVC_TEST_CPU_FILE;
const file = process.argv[1];

/** user+system CPU seconds of this process and of its children that have been waited for. */
export function cpuOfProcess(pid = 'self') {
  // Fields after the command's closing parenthesis: state is the first; utime, stime, cutime, cstime the 12th to 15th.
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const [utime, stime, cutime, cstime] = stat.slice(stat.lastIndexOf(') ') + 2).split(' ').slice(11, 15).map(Number);
  return { self: (utime + stime) / 100, children: (cutime + cstime) / 100 };
}

if (out && file?.endsWith('.test.js')) {
  process.once('exit', () => {
    const cpu = cpuOfProcess();
    fs.appendFileSync(out, `${JSON.stringify({ file, ...cpu, wall: performance.now() / 1000 })}\n`);
  });
}
