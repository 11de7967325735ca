/**
 * Publishes that overlap, crash leftovers and the truth after a lost answer to the move, against
 * the stand-in Algolia with forced interleavings (gates hold one run's request while another
 * runs) and random ones (random delays on every request).
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {crawl} from '../src/crawl/crawl.ts';
import {ConflictError, PublishError, exitCodeFor} from '../src/errors.ts';
import {
  BUILD_MARK,
  STALE_TEMP_INDEX_MS,
  publishToAlgolia,
  tempIndexName,
  tempIndexStartedAt,
  type PublishOptions,
  type PublishResult,
} from '../src/publish/algolia/publish.ts';
import type {SearchRecord} from 'docs-search/record';
import {DOCSEARCH_SETTINGS} from '../src/publish/algolia/settings.ts';
import {publishOptionsFor, startFakeAlgolia, type FakeAlgolia} from './fake-algolia.ts';
import {fixture} from './helpers.ts';

const LIVE = 'docs';
const base = (await crawl(fixture('mini-site'))).records;

const byId = (records: readonly Record<string, unknown>[]): string =>
  JSON.stringify(Object.fromEntries([...records].map((r) => [String(r.objectID), r]).sort(([a], [b]) => (String(a) < String(b) ? -1 : 1))));

/**
 * Build `n` of the site: the first content record edited, a record removed (a different one per
 * build) and one added, so any two builds differ in an update, a deletion and an addition.
 */
function build(n: number): SearchRecord[] {
  const next = base.map((r) => structuredClone(r));
  const edited = next.find((r) => r.type === 'content');
  if (!edited) throw new Error('fixture has no content');
  edited.content = `${edited.content} Edited in build ${n}.`;
  next.splice(1 + (n % (next.length - 2)), 1);
  next.push({...structuredClone(edited), objectID: `added-in-build-${n}`, content: `A paragraph of build ${n}.`});
  return next;
}

function optionsFor(fake: FakeAlgolia, extra: Partial<PublishOptions> = {}): PublishOptions {
  // No test here injects a timeout: a generous one keeps a loaded machine from failing a run.
  return publishOptionsFor(fake, LIVE, {timeoutMs: 5_000, ...extra});
}

/** Publishes `records` and notes the name of its temporary index (its build mark). */
function run(fake: FakeAlgolia, records: SearchRecord[], extra: Partial<PublishOptions> = {}): {done: Promise<PublishResult>; tmp: () => string | undefined} {
  let tmp: string | undefined;
  const done = publishToAlgolia(
    records,
    optionsFor(fake, {
      ...extra,
      onEvent: (e) => {
        if (e.type === 'step' && e.step === 'settings') tmp = e.index;
      },
    }),
  );
  return {done, tmp: () => tmp};
}

const mark = (fake: FakeAlgolia): unknown => (fake.indexes.get(LIVE)?.settings.userData as Record<string, unknown> | undefined)?.[BUILD_MARK];

test('the forced interleaving of the issue: B publishes between A reading live and A copying it; live ends as A\'s complete build', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.seed(LIVE, base, DOCSEARCH_SETTINGS);
    const [a, b] = [build(1), build(2)];
    const copyOfA = fake.gate({step: 'copy'});
    const runA = run(fake, a);
    await copyOfA.reached; // A has read live (base) and diffed against it
    await run(fake, b).done; // B publishes completely meanwhile
    assert.equal(byId(fake.records(LIVE)), byId(b));
    copyOfA.release(); // A copies B's build, not the one it read
    const result = await runA.done;
    assert.equal(result.wrote, true);
    assert.equal(byId(fake.records(LIVE)), byId(a), "live is A's complete build, not A's diff applied to B's");
    assert.equal(mark(fake), runA.tmp());
    for (const state of fake.history(LIVE)) assert.ok([base, a, b].some((r) => JSON.stringify(state) === byId(r)), 'never a mixed state');
    assert.deepEqual(fake.names(), [LIVE]);
  } finally {
    await fake.close();
  }
});

test('a run that finds another publish landed while it filled its copy stops with exit code 3, leaving that complete build live', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.seed(LIVE, base, DOCSEARCH_SETTINGS);
    const [a, b] = [build(1), build(2)];
    const batchOfA = fake.gate({step: 'batch'});
    const runA = run(fake, a);
    await batchOfA.reached; // A has copied live and is sending its records
    const runB = run(fake, b);
    await runB.done;
    batchOfA.release();
    await assert.rejects(runA.done, (error) => {
      assert.ok(error instanceof ConflictError, String(error));
      assert.equal(exitCodeFor(error), 3);
      assert.equal(
        error.message,
        `another publish changed the live index "docs" during this run (it now holds the build of run "${runB.tmp()}"); this run's records were not published: run it again`,
      );
      return true;
    });
    assert.equal(byId(fake.records(LIVE)), byId(b));
    assert.deepEqual(fake.names(), [LIVE], "A's temporary index is deleted");
    // Run again, A publishes over B.
    await run(fake, a).done;
    assert.equal(byId(fake.records(LIVE)), byId(a));
  } finally {
    await fake.close();
  }
});

test('two runs that both passed the check before moving: the one whose build was replaced right after its move says so', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.seed(LIVE, base, DOCSEARCH_SETTINGS);
    const [a, b] = [build(1), build(2)];
    const moveOfA = fake.gate({step: 'move'});
    const runA = run(fake, a);
    await moveOfA.reached; // A checked live: unchanged
    const moveOfB = fake.gate({step: 'move'});
    const runB = run(fake, b);
    await moveOfB.reached; // B checked live: unchanged too
    const confirmOfA = fake.gate({step: 'getSettings', index: /^docs$/});
    moveOfA.release(); // A moves, then asks which build is live …
    await confirmOfA.reached;
    moveOfB.release(); // … after B moved over it
    assert.equal((await runB.done).wrote, true);
    confirmOfA.release();
    await assert.rejects(runA.done, (error) => {
      assert.ok(error instanceof ConflictError, String(error));
      assert.equal(
        error.message,
        `this run's records were moved to the live index "docs", then another publish replaced them (it now holds the build of run "${runB.tmp()}"): run it again`,
      );
      return true;
    });
    assert.equal(byId(fake.records(LIVE)), byId(b));
    assert.equal(mark(fake), runB.tmp());
    assert.deepEqual(fake.names(), [LIVE]);
  } finally {
    await fake.close();
  }
});

/** A small seeded generator, so a failing interleaving can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

test('random interleavings of three runs: live is only ever one build\'s complete records, and it is the build its mark names', async () => {
  for (let round = 0; round < 12; round++) {
    const fake = await startFakeAlgolia();
    try {
      const next = random(round + 1);
      fake.latency = () => Math.floor(next() * 12);
      const start = round % 3 === 0 ? [] : build(100 + round);
      if (start.length) fake.seed(LIVE, start, DOCSEARCH_SETTINGS);
      const builds = [build(3 * round), build(3 * round + 1), build(3 * round + 2)];
      const runs = builds.map((records, i) => {
        const started = new Promise((resolve) => setTimeout(resolve, Math.floor(next() * 30 * i)));
        const handle = {tmp: (): string | undefined => undefined, done: started.then(() => undefined as unknown as PublishResult)};
        handle.done = started.then(() => {
          const r = run(fake, records, round % 4 === 1 ? {full: true} : {});
          handle.tmp = r.tmp;
          return r.done;
        });
        return handle;
      });
      const outcomes = await Promise.allSettled(runs.map((r) => r.done));
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') assert.ok(outcome.reason instanceof ConflictError, `round ${round}: ${String(outcome.reason)}`);
      }
      const winner = runs.findIndex((r) => r.tmp() === mark(fake));
      assert.ok(winner >= 0, `round ${round}: the live index names one of the runs`);
      assert.equal(byId(fake.records(LIVE)), byId(builds[winner] as SearchRecord[]), `round ${round}: live is the named run's complete build`);
      assert.equal(outcomes[winner]?.status, 'fulfilled', `round ${round}: the run whose build is live succeeded`);
      const allowed = [start, ...builds].map(byId);
      for (const state of fake.history(LIVE)) {
        if (Object.keys(state).length) assert.ok(allowed.includes(JSON.stringify(state)), `round ${round}: a mixed live state`);
      }
      assert.deepEqual(fake.names(), [LIVE], `round ${round}: no temporary index left`);
    } finally {
      await fake.close();
    }
  }
});

test('temporary indices of earlier runs older than the documented age are removed; recent ones and other names are kept', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.seed(LIVE, base, DOCSEARCH_SETTINGS);
    const hourAndABitAgo = Date.now() - STALE_TEMP_INDEX_MS - 60_000;
    const stale = tempIndexName(LIVE, hourAndABitAgo);
    const recent = tempIndexName(LIVE, Date.now() - 60_000);
    const staleName = new Date(hourAndABitAgo);
    fake.seed(stale, base.slice(0, 3), {}, staleName);
    fake.seed(recent, base.slice(0, 3), {}, new Date(Date.now() - 60_000));
    // An old index whose name is only like ours, and another live index's leftover: not ours to delete.
    fake.seed(`${LIVE}_tmp_backup`, [], {}, staleName);
    const otherLeftover = tempIndexName('other', hourAndABitAgo);
    fake.seed(otherLeftover, [], {}, staleName);
    // Old by its name but written a minute ago: a run that is still going.
    const slow = tempIndexName(LIVE, hourAndABitAgo - 1000);
    fake.seed(slow, [], {}, new Date(Date.now() - 60_000));
    assert.equal(tempIndexStartedAt(stale, LIVE), hourAndABitAgo);
    assert.equal(tempIndexStartedAt(`${LIVE}_tmp_backup`, LIVE), undefined);
    const removed: string[] = [];
    const result = await publishToAlgolia(base, optionsFor(fake, {onEvent: (e) => e.type === 'leftover' && removed.push(e.index)}));
    assert.equal(result.wrote, false, 'the records were already live');
    assert.deepEqual(removed, [stale]);
    assert.deepEqual(fake.names(), [LIVE, `${LIVE}_tmp_backup`, recent, slow, otherLeftover].sort());
  } finally {
    await fake.close();
  }
});

test('leftovers that cannot be listed do not stop the publish: a warning says so', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.faults.push({step: 'listIndices', fault: 403});
    const warnings: string[] = [];
    const result = await publishToAlgolia(base, optionsFor(fake, {onEvent: (e) => e.type === 'warning' && warnings.push(e.message)}));
    assert.equal(result.wrote, true);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /^could not remove temporary indices left by earlier runs \(Algolia rejected the credentials \(HTTP 403\)/);
  } finally {
    await fake.close();
  }
});

test('a lost answer to the move and a failed check after it: the message says the live index may hold either build, never that it was not changed', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.seed(LIVE, base, DOCSEARCH_SETTINGS);
    const next = build(1);
    // getSettings on live: the first check, the check before the move, then every check after it fails.
    fake.faults.push({step: 'move', fault: 'drop-after', times: 1}, {step: 'getSettings', index: /^docs$/, fault: 503, after: 2});
    await assert.rejects(publishToAlgolia(next, optionsFor(fake)), (error) => {
      assert.ok(error instanceof PublishError, String(error));
      assert.equal(exitCodeFor(error), 1);
      assert.equal(
        error.message,
        'moving the temporary index over the live one failed (connection failed) and checking which build is live failed after 3 attempts: HTTP 503: ' +
          'the live index "docs" may hold this run\'s records or the ones before; run it again to be sure',
      );
      return true;
    });
    assert.equal(byId(fake.records(LIVE)), byId(next), 'the move did happen');
    assert.deepEqual(fake.names(), [LIVE]);
  } finally {
    await fake.close();
  }
});

test('a move that failed and a check that shows the previous build live: "not changed" is then a fact', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.seed(LIVE, base, DOCSEARCH_SETTINGS);
    fake.faults.push({step: 'move', fault: 'drop'});
    const checks = () => fake.log.filter((e) => e.step === 'getSettings' && e.index === LIVE).length;
    await assert.rejects(publishToAlgolia(build(1), optionsFor(fake)), {
      message: /^moving the temporary index over the live one failed after 3 attempts: connection failed; the live index "docs" was not changed$/,
    });
    assert.equal(checks(), 2 + 3, 'which build is live was checked after each failed move');
    assert.equal(byId(fake.records(LIVE)), byId(base));
    assert.deepEqual(fake.names(), [LIVE]);
  } finally {
    await fake.close();
  }
});
