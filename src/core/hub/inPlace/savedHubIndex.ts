/**
 * The saved index of a Hub log, in the same store as local indexes but keyed by the file's
 * content hash (lfs sha256, else git oid) instead of path and mtime, as the indexing pass
 * verified it (never as the Hub claimed it: an index is saved only after the bytes hashed to
 * the key, and it carries that hash and the per-block sha256 of the pass), and a pointer per
 * (endpoint, repo, revision, log) naming the content last indexed: offline it says which
 * index to open; at a newer commit it says which index the grown file may continue.
 * Both are frames like any saved index, and untrusted when read back.
 */
import { createHash } from 'node:crypto';
import { decodeFrame, encodeFrame } from '../../log/indexCodec';
import type { DecodedFrame, Section } from '../../log/indexCodec';
import type { IndexStore } from '../../log/indexStore';
import { stableJson } from '../../log/indexStore';
import type { HubLogTarget } from './hubLogSource';
import { DIGEST_BYTES, blockCount } from './contentCheck';
import type { Verified } from './contentCheck';

/** What a saved index says of the Hub file it indexes. */
export interface HubIdentity extends HubLogTarget {
  /** bytes indexed: up to and including the last newline read */
  committed: number;
  /** sha256 of the first and of the last 64 KB before `committed` */
  head: string;
  tail: string;
  /** the file's first bytes (base64), so that the reader's head check needs no request */
  first?: string;
  /** the hash the indexed bytes had (the key; an index without it, or with another, is not opened) */
  verified: string;
}

/** What a saved metrics index says of its Hub file: the content hash names it whole. */
export interface HubMetricsIdentity extends HubLogTarget {
  committed: number;
  first?: string;
  verified: string;
}

export interface HubPointer {
  credit?: HubIdentity;
  metrics?: HubLogTarget;
}

const KEY = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
const HEX64 = /^[0-9a-f]{64}$/;
const SHA1 = /^[0-9a-f]{40}$/;
const count = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
const str = (x: unknown): x is string => typeof x === 'string' && x.length < 1000;

function isTarget(v: unknown): v is HubLogTarget {
  if (v === null || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  return str(o['repo']) && str(o['path']) && SHA1.test(String(o['commit'])) && KEY.test(String(o['key'])) && count(o['size']);
}

/** At most this many first bytes are kept (the reader's head check reads 256). */
export const FIRST_BYTES = 256;

function isMetricsIdentity(v: unknown): v is HubMetricsIdentity {
  if (!isTarget(v)) return false;
  const o = v as unknown as Record<string, unknown>;
  return (
    count(o['committed']) &&
    o['committed'] <= v.size &&
    o['verified'] === v.key &&
    (o['first'] === undefined || firstBytes(o['first']) !== undefined)
  );
}

export function isIdentity(v: unknown): v is HubIdentity {
  if (!isMetricsIdentity(v)) return false;
  const o = v as unknown as Record<string, unknown>;
  return HEX64.test(String(o['head'])) && HEX64.test(String(o['tail']));
}

/** The first bytes a saved identity carries, when they check out (base64 of at most FIRST_BYTES bytes). */
export function firstBytes(first: unknown): Buffer | undefined {
  if (typeof first !== 'string' || first.length > 4 * Math.ceil(FIRST_BYTES / 3) || !/^[A-Za-z0-9+/]*={0,2}$/.test(first)) return undefined;
  const b = Buffer.from(first, 'base64');
  return b.length > 0 ? b : undefined;
}

export const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

type HubIndexKind = 'credit' | 'metrics';
/** The options a saved index depends on: the behaviour tags' horizon and theta are derived when asked, not saved. */
const keyOf = (o: unknown): unknown => (o !== null && typeof o === 'object' && 'behaviour' in o ? { ...o, behaviour: undefined } : o);
const indexName = (store: IndexStore, kind: HubIndexKind, key: string, options: unknown): string =>
  store.nameOf(`hub-${kind}`, `/hub/${key}`, keyOf(options));
const pointerName = (store: IndexStore, where: string, options: unknown): string =>
  store.nameOf('hub-pointer', `/hub/${where}`, keyOf(options));

async function loadFrame<T extends HubLogTarget>(
  store: IndexStore,
  kind: HubIndexKind,
  key: string,
  options: unknown,
  check: (v: unknown) => v is T,
): Promise<SavedHubIndex<T> | undefined> {
  const buf = await store.load(indexName(store, kind, key, options));
  const frame = buf ? decodeFrame(buf) : undefined;
  const identity = frame?.header['hub'];
  if (!frame || !check(identity) || identity.key !== key) return undefined;
  const blocks = frame.sections.get(BLOCKS);
  if (blocks?.type !== 'u32' || blocks.bytes.length !== blockCount(identity.size) * DIGEST_BYTES) return undefined;
  return { frame, identity, verified: { key, size: identity.size, blocks: Buffer.from(blocks.bytes) } };
}

/** A saved index that checks out: its frame, what it says of its file, and the verification it was saved with. */
export interface SavedHubIndex<T> {
  frame: DecodedFrame;
  identity: T;
  verified: Verified;
}

/** The section holding the per-block sha256 of the pass (as u32 words). */
const BLOCKS = 'hub.blocks';

/** The saved credit index of the content `key`, with its identity; undefined when none checks out. */
export const loadHubIndex = (store: IndexStore, key: string, options: unknown): Promise<SavedHubIndex<HubIdentity> | undefined> =>
  loadFrame(store, 'credit', key, options, isIdentity);

/** The saved metrics index of the content `key`; undefined when none checks out. */
export const loadHubMetrics = (store: IndexStore, key: string, options: unknown): Promise<SavedHubIndex<HubMetricsIdentity> | undefined> =>
  loadFrame(store, 'metrics', key, options, isMetricsIdentity);

export async function saveHubIndex(
  store: IndexStore,
  options: unknown,
  snap: { header: Record<string, unknown>; sections: Section[] },
  identity: HubIdentity | HubMetricsIdentity,
  verified: Verified,
  kind: HubIndexKind = 'credit',
): Promise<void> {
  if (verified.key !== identity.key || identity.verified !== verified.key)
    throw new Error('internal: saving an index of bytes not verified');
  const words = new Uint32Array(verified.blocks.length / 4);
  Buffer.from(words.buffer).set(verified.blocks);
  const sections = [...snap.sections, { name: BLOCKS, count: words.length, data: words }];
  await store.save(indexName(store, kind, identity.key, options), encodeFrame({ ...snap.header, hub: identity }, sections));
}

export async function loadPointer(store: IndexStore, where: string, options: unknown): Promise<HubPointer> {
  const buf = await store.load(pointerName(store, where, options));
  const frame = buf ? decodeFrame(buf) : undefined;
  const h = frame?.header;
  if (!h || h['kind'] !== 'hub-pointer' || h['where'] !== where || h['options'] !== stableJson(keyOf(options))) return {};
  return { ...(isIdentity(h['credit']) ? { credit: h['credit'] } : {}), ...(isTarget(h['metrics']) ? { metrics: h['metrics'] } : {}) };
}

export async function savePointer(store: IndexStore, where: string, options: unknown, p: HubPointer): Promise<void> {
  await store.save(
    pointerName(store, where, options),
    encodeFrame({ kind: 'hub-pointer', where, options: stableJson(keyOf(options)), ...p }, []),
  );
}
