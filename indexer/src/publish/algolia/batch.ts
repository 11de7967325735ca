/**
 * The batch step: the operations (diff.ts) sent to the temporary index in batches of
 * `batchSize`, each retried on its own, then every batch's task waited for.
 */
import type {Calls} from './calls.ts';
import type {Operation, Plan} from './diff.ts';
import type {PublishEvent} from './options.ts';
import type {RecordStore} from '../../records/store.ts';

/** How many operations a plan sends (every record when it sends all, and the deletions). */
export function operationCountOf(store: RecordStore, plan: Plan): number {
  return (plan.sendAll ? store.size : plan.added.length + plan.updated.length) + plan.deletions.length;
}

export async function sendBatches(
  {client, withRetries, waitTask}: Calls,
  tmp: string,
  operations: Iterable<Operation>,
  operationCount: number,
  batchSize: number,
  emit: (event: PublishEvent) => void,
): Promise<void> {
  const tasks: number[] = [];
  let sent = 0;
  let chunk: Operation[] = [];
  const sendChunk = async (): Promise<void> => {
    const requests = chunk;
    chunk = [];
    const response = await withRetries('batch', () => client.batch({indexName: tmp, batchWriteParams: {requests}}));
    tasks.push(response.taskID);
    sent += requests.length;
    emit({type: 'batch', sent, total: operationCount});
  };
  for (const op of operations) {
    chunk.push(op);
    if (chunk.length >= batchSize) await sendChunk();
  }
  if (chunk.length) await sendChunk();
  for (const taskID of tasks) await waitTask('batch', tmp, taskID);
}
