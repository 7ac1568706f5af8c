// `node stdout-tee.mjs <file> <command> [...args]`: runs the command on our stdin and stderr, and
// copies its stdout both to ours and to <file>, so a test can read every byte a server process
// wrote to a client that does not expose it (the official client skips lines that are not JSON).
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';

const [file, command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ['inherit', 'pipe', 'inherit'] });

child.stdout.on('data', (chunk) => {
  appendFileSync(file, chunk);
  process.stdout.write(chunk);
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
child.on('close', (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else {
    process.exitCode = code ?? 1;
  }
});
