/**
 * The move step: the temporary index moved over the live one (atomic on Algolia's side), then
 * the check that this run's build is what is live. A lost answer to the move is settled by
 * asking which build is live, never by assuming.
 */
import {ConflictError, PublishError} from '../../errors.ts';
import {isRetryable, STEP_LABELS, type Calls} from './calls.ts';
import type {PublishStep} from './options.ts';
import {describeBuild} from './temp-index.ts';

/** Which build the live index holds: a run's name, undefined when unmarked, null when there is no live index. */
export type LiveBuild = (step: PublishStep) => Promise<string | null | undefined>;

/** Moves `tmp` over `live`; the move's task, or undefined when a lost answer's move is found done. */
export function moveOver({client, withRetries, describe}: Calls, tmp: string, live: string, liveBuild: LiveBuild): Promise<{taskID: number} | undefined> {
  return withRetries('move', async () => {
    try {
      return await client.operationIndex({indexName: tmp, operationIndexParams: {operation: 'move', destination: live}});
    } catch (error) {
      if (!isRetryable(error)) throw error;
      // The move may have happened even though its answer was lost: ask which build is live.
      let now: string | null | undefined;
      try {
        now = await liveBuild('confirm');
      } catch (checkError) {
        throw new PublishError(
          `${STEP_LABELS.move} failed (${describe(error)}) and ${checkError instanceof Error ? checkError.message : String(checkError)}: ` +
            `the live index "${live}" may hold this run's records or the ones before; run it again to be sure`,
          {cause: error},
        );
      }
      if (now === tmp) return undefined;
      throw error; // not moved: try again
    }
  });
}

/**
 * After the move: waits for it, then checks that `tmp`'s build is live (a run whose check came
 * just before ours can have moved right after: a ConflictError).
 */
export async function confirmLive({waitTask}: Calls, tmp: string, live: string, move: {taskID: number} | undefined, liveBuild: LiveBuild): Promise<void> {
  let waitFailure: unknown;
  if (move) {
    try {
      await waitTask('move', live, move.taskID);
    } catch (error) {
      waitFailure = error;
    }
  }
  // 5. Ours live? A run whose check came just before ours can have moved right after.
  let after: string | null | undefined;
  try {
    after = await liveBuild('confirm');
  } catch (error) {
    throw new PublishError(
      `the move was accepted but ${error instanceof Error ? error.message : String(error)}: ` +
        `the live index "${live}" may hold this run's records or the ones before; run it again to be sure`,
      {cause: error},
    );
  }
  if (after !== tmp) {
    if (waitFailure) {
      throw new PublishError(
        `the move was accepted but ${waitFailure instanceof Error ? waitFailure.message : String(waitFailure)}; ` +
          `the live index "${live}" still holds ${describeBuild(after)}, not this run's records`,
        {cause: waitFailure},
      );
    }
    throw new ConflictError(
      `this run's records were moved to the live index "${live}", then another publish replaced them (it now holds ${describeBuild(after)}): run it again`,
    );
  }
}
