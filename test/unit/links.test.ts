import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildLink, EXTENSION_ID, LinkError, LINK_PATH, parseLink } from '../../src/core/links/link';
import type { RunLink } from '../../src/core/links/link';

/** What VS Code does to a link before its URI handler sees it: split it, then percent-decode the path and the query once. */
function asVSCodeHandsIt(text: string): { authority: string; path: string; query: string } {
  const m = /^vscode:\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?/.exec(text);
  assert.ok(m, text);
  const decode = (s: string): string =>
    s.replace(/(%[0-9A-Za-z][0-9A-Za-z])+/g, (x) => {
      try {
        return decodeURIComponent(x);
      } catch {
        return x;
      }
    });
  return { authority: m[1]!, path: decode(m[2]!), query: decode(m[3] ?? '') };
}

function roundTrip(link: RunLink): RunLink {
  const u = asVSCodeHandsIt(buildLink(link));
  assert.equal(u.authority, EXTENSION_ID);
  return parseLink(u.path, u.query);
}

test('the link authority is the extension id of package.json', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { publisher: string; name: string };
  assert.equal(EXTENSION_ID, `${pkg.publisher}.${pkg.name}`);
});

test('links round-trip through VS Code decoding: runs, views, and values with every awkward character', () => {
  const odd = '/home/u/runs/a b&c=d%25e#f+g?h@i/ü—ä/\'"';
  const links: RunLink[] = [
    { run: { kind: 'local', path: '/home/u/runs/exp1' }, view: { kind: 'run' } },
    { run: { kind: 'local', path: odd }, view: { kind: 'trajectories', iteration: 3 } },
    { run: { kind: 'local', path: '/' }, view: { kind: 'trajectories', iteration: 0, group: 1 } },
    { run: { kind: 'local', path: 'C:\\Users\\A B\\run' }, view: { kind: 'trajectories', iteration: 44, group: 47, rollout: 4, turn: 0 } },
    {
      run: { kind: 'hub', repo: 'XunmeiLiu/openwebrl-ws-credit-beta0.4', revision: 'main' },
      view: { kind: 'metric', metric: 'ws/c_mean' },
    },
    { run: { kind: 'hub', repo: 'a/b', revision: 'refs/pr/3' }, view: { kind: 'metric', metric: 'odd & = % # + name' } },
    {
      run: { kind: 'hub', repo: 'o.w-n_er/n4me', revision: '0123456789abcdef0123456789abcdef01234567' },
      view: { kind: 'compare', other: { kind: 'local', path: '/x/y@z' } },
    },
    {
      run: { kind: 'local', path: '/runs/a' },
      view: { kind: 'compare', other: { kind: 'hub', repo: 'owner/name', revision: 'v1.0' } },
    },
    {
      run: { kind: 'local', path: '/r' },
      view: { kind: 'trajectories', iteration: Number.MAX_SAFE_INTEGER, group: 0, rollout: 0, turn: Number.MAX_SAFE_INTEGER },
    },
  ];
  for (const link of links) assert.deepEqual(roundTrip(link), link, JSON.stringify(link));
});

test('a plain link reads as it is', () => {
  assert.equal(
    buildLink({
      run: { kind: 'local', path: '/home/u/runs/exp1' },
      view: { kind: 'trajectories', iteration: 3, group: 1, rollout: 2, turn: 4 },
    }),
    'vscode://rl-run-browser.rl-run-browser/open?run=/home/u/runs/exp1&iteration=3&group=1&rollout=2&turn=4',
  );
  assert.equal(
    buildLink({ run: { kind: 'hub', repo: 'owner/name', revision: 'main' }, view: { kind: 'metric', metric: 'ws/c_mean' } }),
    'vscode://rl-run-browser.rl-run-browser/open?repo=owner/name&revision=main&metric=ws/c_mean',
  );
  // a space or an & survives VS Code's own decoding only encoded twice
  const spaced = buildLink({ run: { kind: 'local', path: '/a b&c' }, view: { kind: 'run' } });
  assert.equal(spaced, 'vscode://rl-run-browser.rl-run-browser/open?run=/a%2520b%2526c');
});

test('hostile links are refused with one line naming the reason', () => {
  const huge = '9007199254740992';
  const cases: [string, RegExp][] = [
    ['run=/a/../etc', /"\." or "\.\." segments/],
    ['run=/a/./b', /"\." or "\.\." segments/],
    ['run=/..', /"\." or "\.\." segments/],
    ['run=relative/run', /must be absolute/],
    ['run=../../etc', /must be absolute/],
    ['run=~/run', /must be absolute/],
    ['run=/a//b', /normalised/],
    ['run=/a/', /normalised/],
    ['run=/a\\..\\b', /backslash/],
    ['run=C:\\a\\..\\b', /"\." or "\.\." segments/],
    ['run=C:/a/b', /backslashes only/],
    ['run=C:\\a\\b...', /dot or a space/],
    ['run=C:\\a\\b:stream', /":" past its drive/],
    ['run=\\\\server\\share\\run', /network paths/],
    ['run=//server/share/run', /network paths/],
    ['run=/a&foo=1', /unknown parameter "foo"/],
    ['run=/a&Run=/b', /unknown parameter "Run"/],
    ['run=/a&run=/b', /"run" is given twice/],
    ['run=/a&iteration=1&iteration=1', /"iteration" is given twice/],
    ['run=', /"run" is empty/],
    ['run', /"run" is empty/],
    ['run=/a&iteration=', /"iteration" is empty/],
    ['run=/a&&iteration=1', /empty parameter/],
    ['run=/a&', /empty parameter/],
    ['', /names no run/],
    [`run=/a&iteration=${huge}`, /whole number from 0 to 2\^53 - 1/],
    ['run=/a&iteration=99999999999999999999999', /whole number/],
    ['run=/a&iteration=1e3', /whole number/],
    ['run=/a&iteration=-1', /whole number/],
    ['run=/a&iteration=1.5', /whole number/],
    ['run=/a&iteration=0x10', /whole number/],
    ['run=/a&iteration= 1', /whole number/],
    ['run=/a&group=1', /group needs iteration/],
    ['run=/a&iteration=1&rollout=2', /rollout needs group/],
    ['run=/a&iteration=1&group=1&turn=2', /turn needs rollout/],
    ['run=/a&iteration=1&metric=x', /one view/],
    ['run=/a&metric=x&compare=/b', /one view/],
    ['repo=owner/name', /needs its revision/],
    ['revision=main', /names no run/],
    ['run=/a&revision=main', /revision goes with repo/],
    ['run=/a&repo=o/n&revision=main', /both a local run and a Hub repo/],
    ['repo=../x&revision=main', /not a Hub repo id/],
    ['repo=a/b/c&revision=main', /not a Hub repo id/],
    ['repo=a--b/c&revision=main', /not a Hub repo id/],
    ['repo=-a/c&revision=main', /not a Hub repo id/],
    ['repo=owner/name&revision=../../x', /not a revision/],
    ['repo=owner/name&revision=/main', /not a revision/],
    ['run=/a&compare=nonsense', /absolute path or owner\/name@revision/],
    ['run=/a&compare=owner/name@a@b', /absolute path or owner\/name@revision/],
    ['run=/a&compare=/x/../y', /"\." or "\.\." segments/],
    ['run=/a&compare=bad..repo/x@main', /not a Hub repo id/],
    ['run=/a%0Ab', /control character/],
    ['run=/a%00', /control character/],
    ['run=/a&metric=%E2%80%AEtxt', /control character/],
    ['run=/a&metric=%7F', /control character/],
    ['run=/a%E0%A4%A', /not valid percent-encoding/],
    ['run=/a&metric=%20x', /space/],
    [`run=/${'a'.repeat(5000)}`, /longer than 4096/],
    [`run=/a&metric=${'m'.repeat(20000)}`, /the link is longer than/],
  ];
  for (const [query, message] of cases) {
    assert.throws(
      () => parseLink(LINK_PATH, query),
      (e: unknown) => {
        assert.ok(e instanceof LinkError, `${query}: ${String(e)}`);
        assert.match(e.message, message, query);
        assert.doesNotMatch(e.message, /[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/, 'the message holds no control character');
        assert.ok(e.message.length < 200, e.message);
        return true;
      },
    );
  }
  assert.throws(() => parseLink('/other', 'run=/a'), /unknown link path "\/other"/);
  assert.throws(
    () => parseLink('/open', 'x\u202e=1'),
    (e: unknown) => e instanceof LinkError && /unknown parameter "x\\u202e"/.test(e.message),
  );
});

test('buildLink refuses what parseLink would refuse', () => {
  const local = (path: string): RunLink => ({ run: { kind: 'local', path }, view: { kind: 'run' } });
  const at = (iteration: number): RunLink => ({ run: { kind: 'local', path: '/r' }, view: { kind: 'trajectories', iteration } });
  for (const bad of [
    local('relative'),
    local('/a/../b'),
    local('/a\nb'),
    at(-1),
    at(1.5),
    at(NaN),
    at(2 ** 53),
    { run: { kind: 'hub', repo: 'nope', revision: 'main' }, view: { kind: 'run' } } as RunLink,
    { run: { kind: 'local', path: '/r' }, view: { kind: 'metric', metric: '' } } as RunLink,
  ])
    assert.throws(() => buildLink(bad), LinkError, JSON.stringify(bad));
});
