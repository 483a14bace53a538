/** Which proxy a command or the editor uses, and how a proxy's failure is told apart from the Hub's. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { proxyFailure, proxyFromEnv, proxyFromSetting, shownProxy } from '../../src/core/hub/proxy';

test('the environment: lowercase names first, NO_PROXY read, none set is no proxy', () => {
  assert.equal(proxyFromEnv({}), undefined);
  const p = proxyFromEnv({ HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:2', NO_PROXY: 'hub.local' });
  assert.equal(p?.https, 'http://lower:2/');
  assert.equal(p?.http, '');
  assert.equal(p?.noProxy, 'hub.local');
  assert.equal(p?.source, 'https_proxy');
  assert.equal(proxyFromEnv({ HTTP_PROXY: 'proxy.corp:3128' })?.http, 'http://proxy.corp:3128/');
});

test("the editor's http.proxy serves both schemes, with http.noProxy; without it the environment's proxy", () => {
  const s = proxyFromSetting('http://editor:8080', ['a.local', ' b.local '], { NO_PROXY: 'env.local' });
  assert.deepEqual(s, {
    http: 'http://editor:8080/',
    https: 'http://editor:8080/',
    noProxy: 'a.local,b.local',
    source: 'the http.proxy setting',
  });
  assert.equal(proxyFromSetting('http://editor:8080', [], { NO_PROXY: 'env.local' })?.noProxy, 'env.local');
  assert.equal(proxyFromSetting('', undefined, { HTTPS_PROXY: 'http://env:1' })?.https, 'http://env:1/');
  assert.equal(proxyFromSetting(undefined, undefined, {}), undefined);
  assert.throws(() => proxyFromSetting('socks5://x:1', undefined, {}), /from the http.proxy setting is socks5/);
});

test("a proxy's credentials never reach a message", () => {
  assert.equal(shownProxy('http://user:secret@proxy:3128/'), 'http://proxy:3128');
  const e = Object.assign(new TypeError('fetch failed'), {
    cause: Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:3128'), { code: 'ECONNREFUSED', address: '10.0.0.1', port: 3128 }),
  });
  const f = proxyFailure(e, ['http://user:secret@10.0.0.1:3128/'], 'HTTPS_PROXY');
  assert.equal(
    f?.message,
    "cannot reach the proxy http://10.0.0.1:3128 (from HTTPS_PROXY): ECONNREFUSED; check it, or list the Hub's host in NO_PROXY",
  );
  assert.ok(!f?.message.includes('secret'));
});

test('a host behind the proxy that refuses is not the proxy failing', () => {
  const e = Object.assign(new TypeError('fetch failed'), {
    cause: Object.assign(new Error('connect ECONNREFUSED 10.0.0.9:443'), { code: 'ECONNREFUSED', address: '10.0.0.9', port: 443 }),
  });
  assert.equal(proxyFailure(e, ['http://10.0.0.1:3128/'], 'HTTPS_PROXY'), undefined);
  const tunnel = Object.assign(new TypeError('fetch failed'), { cause: new Error('Proxy response (407) !== 200 when HTTP Tunneling') });
  assert.match(
    proxyFailure(tunnel, ['http://10.0.0.1:3128/'], 'HTTPS_PROXY')?.message ?? '',
    /proxy http:\/\/10\.0\.0\.1:3128 .* refused to open a tunnel: HTTP 407/,
  );
});
