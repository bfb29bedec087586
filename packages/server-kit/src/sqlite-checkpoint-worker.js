// The thread that checkpoints a serving process's SQLite file (sqlite-checkpoints.ts says why).
// Plain JavaScript: a worker thread started from TypeScript sources has no TypeScript loader.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const { file, intervalMs } = workerData;
// The lowest priority: a checkpoint is work for idle time. At the serving thread's priority it took a
// core from the event loop and the load's other threads whenever it ran, which one caller saw as its p95
// (measured: 0.30–0.44 ms at the same priority, 0.12–0.21 ms at nice 19, 0.08–0.10 ms with no
// checkpoints at all). If it falls behind, the serving connection's backstop checkpoints (sqlite-checkpoints.ts).
// Only on Linux, where a nice value belongs to a thread; elsewhere it would lower the whole process.
if (process.platform === 'linux') setPriority(19);
const connection = new SQLite(file, { fileMustExist: true });
connection.pragma('busy_timeout = 5000');

// PASSIVE copies what it can without waiting for readers or writers; a WAL with nothing new costs
// a look at the WAL index.
const timer = setInterval(() => {
  try {
    connection.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    stop();
    throw error;
  }
}, intervalMs);

parentPort.on('message', (message) => {
  if (message === 'close') stop();
});

function stop() {
  clearInterval(timer);
  parentPort.close();
  connection.close();
}
