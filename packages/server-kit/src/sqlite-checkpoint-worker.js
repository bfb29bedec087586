// The thread that checkpoints a serving process's SQLite file (sqlite-checkpoints.ts says why).
// Plain JavaScript: a worker thread started from TypeScript sources has no TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const { file, intervalMs } = workerData;
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
