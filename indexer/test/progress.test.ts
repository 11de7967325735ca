import {test} from 'node:test';
import assert from 'node:assert/strict';
import {Writable} from 'node:stream';
import {createProgress, isAnimated} from '../src/cli/progress.ts';

function sink(): Writable & {text: string} {
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      stream.text += String(chunk);
      callback();
    },
  }) as Writable & {text: string};
  stream.text = '';
  return stream;
}

test('progress is animated only on a TTY without CI', () => {
  assert.equal(isAnimated({isTTY: true}, {}), true);
  assert.equal(isAnimated({isTTY: true}, {CI: 'true'}), false);
  assert.equal(isAnimated({isTTY: false}, {}), false);
  assert.equal(isAnimated({}, {}), false);
});

test('a silent progress writes nothing; an animated one redraws one line and erases it', () => {
  const quiet = sink();
  const silent = createProgress(false, quiet);
  silent.crawlEvent({type: 'start', source: 'site/build', mode: 'folder', baseUrl: 'https://x.org/', total: 3});
  silent.step('publishing');
  silent.clear();
  assert.equal(quiet.text, '');
  const tty = sink();
  const live = createProgress(true, tty);
  live.crawlEvent({type: 'start', source: 'site/build', mode: 'folder', baseUrl: 'https://x.org/', total: 3});
  live.step('publishing: move docs');
  live.clear();
  assert.equal(tty.text, '\r\x1b[2Kcrawling site/build (folder)…\r\x1b[2Kpublishing: move docs\r\x1b[2K');
  assert.ok(!tty.text.includes('\n'));
});
