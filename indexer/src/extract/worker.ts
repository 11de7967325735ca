/** Body of an extract worker (started by pool.ts): one job at a time, replies in job order. */
import {parentPort} from 'node:worker_threads';
import {extractJob, jobFailure, type PageJob, type WorkerReply} from './pool.ts';

const port = parentPort;
if (!port) throw new Error('extract/worker runs as a worker thread');

let queue: Promise<void> = Promise.resolve();
port.on('message', ({id, job}: {id: number; job: PageJob}) => {
  queue = queue.then(async () => {
    let reply: WorkerReply;
    try {
      reply = {id, output: await extractJob(job)};
    } catch (error) {
      reply = {id, failure: jobFailure(error)};
    }
    const output = 'output' in reply ? reply.output : undefined;
    const transfer: ArrayBuffer[] = [];
    if (output?.packed) transfer.push(output.packed.buffer as ArrayBuffer);
    if (output?.digest) transfer.push(output.digest.hashes.buffer as ArrayBuffer);
    port.postMessage(reply, transfer);
  });
});
