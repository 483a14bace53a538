/**
 * Real checkpoints for the demo's Hub repo (docs/format.md section 9): a `.metadata` written by
 * torch.distributed.checkpoint over 8 gloo ranks, 2 files a rank (test/fixtures/checkpoints/make.py
 * demo, torch 2.13), its shards with the bytes it says they hold, and safetensors shards written
 * here in the format's own layout. One resume iteration is broken as an interrupted upload leaves it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readDistcpMetadata } from '../integrity/distcpMetadata';

/** The `.metadata` torch wrote (base64, 4956 bytes). */
const METADATA_BASE64 = [
  'gASVURMAAAAAAACMJXRvcmNoLmRpc3RyaWJ1dGVkLmNoZWNrcG9pbnQubWV0YWRhdGGUjAhNZXRhZGF0YZSTlCmBlH2UKIwTc3RhdGVfZGljdF9tZXRhZGF0',
  'YZR9lCiMLG1vZGVsLmRlY29kZXIubGF5ZXJzLjAubWxwLmxpbmVhcl9mYzEud2VpZ2h0lGgAjBVUZW5zb3JTdG9yYWdlTWV0YWRhdGGUk5QpgZR9lCiMCnBy',
  'b3BlcnRpZXOUaACMEFRlbnNvclByb3BlcnRpZXOUk5QpgZQojAV0b3JjaJSMCGJmbG9hdDE2lJOUjBN0b3JjaC5zZXJpYWxpemF0aW9ulIwLX2dldF9sYXlv',
  'dXSUk5SMDXRvcmNoLnN0cmlkZWSUhZRSlIloAIwUX01FTV9GT1JNQVRfRU5DT0RJTkeUk5RLAIWUUpSJdJRijARzaXpllIwFdG9yY2iUjARTaXpllJOUSyBL',
  'EIaUhZRSlIwGY2h1bmtzlF2UaACMFENodW5rU3RvcmFnZU1ldGFkYXRhlJOUKYGUfZQojAdvZmZzZXRzlGghSwBLAIaUhZRSlIwFc2l6ZXOUaCFLIEsQhpSF',
  'lFKUdWJhdWKMIG9wdGltaXplci5zdGF0ZS5leHBfYXZnLmxheWVycy4wlGgJKYGUfZQoaAxoDimBlChoEIwHZmxvYXQzMpSTlGgYiWgciXSUYmgeaCFLMEsQ',
  'hpSFlFKUaCVdlGgoKYGUfZQoaCtoIUsASwCGlIWUUpRoL2ghSzBLEIaUhZRSlHViYXVijCxtb2RlbC5kZWNvZGVyLmxheWVycy4xLm1scC5saW5lYXJfZmMx',
  'LndlaWdodJRoCSmBlH2UKGgMaA4pgZQoaBJoGIloHIl0lGJoHmghSyBLEIaUhZRSlGglXZRoKCmBlH2UKGgraCFLAEsAhpSFlFKUaC9oIUsgSxCGlIWUUpR1',
  'YmF1Yowgb3B0aW1pemVyLnN0YXRlLmV4cF9hdmcubGF5ZXJzLjGUaAkpgZR9lChoDGgOKYGUKGg4aBiJaByJdJRiaB5oIUswSxCGlIWUUpRoJV2UaCgpgZR9',
  'lChoK2ghSwBLAIaUhZRSlGgvaCFLMEsQhpSFlFKUdWJhdWKMLG1vZGVsLmRlY29kZXIubGF5ZXJzLjIubWxwLmxpbmVhcl9mYzEud2VpZ2h0lGgJKYGUfZQo',
  'aAxoDimBlChoEmgYiWgciXSUYmgeaCFLIEsQhpSFlFKUaCVdlGgoKYGUfZQoaCtoIUsASwCGlIWUUpRoL2ghSyBLEIaUhZRSlHViYXVijCBvcHRpbWl6ZXIu',
  'c3RhdGUuZXhwX2F2Zy5sYXllcnMuMpRoCSmBlH2UKGgMaA4pgZQoaDhoGIloHIl0lGJoHmghSzBLEIaUhZRSlGglXZRoKCmBlH2UKGgraCFLAEsAhpSFlFKU',
  'aC9oIUswSxCGlIWUUpR1YmF1YowsbW9kZWwuZGVjb2Rlci5sYXllcnMuMy5tbHAubGluZWFyX2ZjMS53ZWlnaHSUaAkpgZR9lChoDGgOKYGUKGgSaBiJaByJ',
  'dJRiaB5oIUsgSxCGlIWUUpRoJV2UaCgpgZR9lChoK2ghSwBLAIaUhZRSlGgvaCFLIEsQhpSFlFKUdWJhdWKMIG9wdGltaXplci5zdGF0ZS5leHBfYXZnLmxh',
  'eWVycy4zlGgJKYGUfZQoaAxoDimBlChoOGgYiWgciXSUYmgeaCFLMEsQhpSFlFKUaCVdlGgoKYGUfZQoaCtoIUsASwCGlIWUUpRoL2ghSzBLEIaUhZRSlHVi',
  'YXVijCxtb2RlbC5kZWNvZGVyLmxheWVycy40Lm1scC5saW5lYXJfZmMxLndlaWdodJRoCSmBlH2UKGgMaA4pgZQoaBJoGIloHIl0lGJoHmghSyBLEIaUhZRS',
  'lGglXZRoKCmBlH2UKGgraCFLAEsAhpSFlFKUaC9oIUsgSxCGlIWUUpR1YmF1Yowgb3B0aW1pemVyLnN0YXRlLmV4cF9hdmcubGF5ZXJzLjSUaAkpgZR9lCho',
  'DGgOKYGUKGg4aBiJaByJdJRiaB5oIUswSxCGlIWUUpRoJV2UaCgpgZR9lChoK2ghSwBLAIaUhZRSlGgvaCFLMEsQhpSFlFKUdWJhdWKMLG1vZGVsLmRlY29k',
  'ZXIubGF5ZXJzLjUubWxwLmxpbmVhcl9mYzEud2VpZ2h0lGgJKYGUfZQoaAxoDimBlChoEmgYiWgciXSUYmgeaCFLIEsQhpSFlFKUaCVdlGgoKYGUfZQoaCto',
  'IUsASwCGlIWUUpRoL2ghSyBLEIaUhZRSlHViYXVijCBvcHRpbWl6ZXIuc3RhdGUuZXhwX2F2Zy5sYXllcnMuNZRoCSmBlH2UKGgMaA4pgZQoaDhoGIloHIl0',
  'lGJoHmghSzBLEIaUhZRSlGglXZRoKCmBlH2UKGgraCFLAEsAhpSFlFKUaC9oIUswSxCGlIWUUpR1YmF1YowsbW9kZWwuZGVjb2Rlci5sYXllcnMuNi5tbHAu',
  'bGluZWFyX2ZjMS53ZWlnaHSUaAkpgZR9lChoDGgOKYGUKGgSaBiJaByJdJRiaB5oIUsgSxCGlIWUUpRoJV2UaCgpgZR9lChoK2ghSwBLAIaUhZRSlGgvaCFL',
  'IEsQhpSFlFKUdWJhdWKMIG9wdGltaXplci5zdGF0ZS5leHBfYXZnLmxheWVycy42lGgJKYGUfZQoaAxoDimBlChoOGgYiWgciXSUYmgeaCFLMEsQhpSFlFKU',
  'aCVdlGgoKYGUfZQoaCtoIUsASwCGlIWUUpRoL2ghSzBLEIaUhZRSlHViYXVijCxtb2RlbC5kZWNvZGVyLmxheWVycy43Lm1scC5saW5lYXJfZmMxLndlaWdo',
  'dJRoCSmBlH2UKGgMaA4pgZQoaBJoGIloHIl0lGJoHmghSyBLEIaUhZRSlGglXZRoKCmBlH2UKGgraCFLAEsAhpSFlFKUaC9oIUsgSxCGlIWUUpR1YmF1Yowg',
  'b3B0aW1pemVyLnN0YXRlLmV4cF9hdmcubGF5ZXJzLjeUaAkpgZR9lChoDGgOKYGUKGg4aBiJaByJdJRiaB5oIUswSxCGlIWUUpRoJV2UaCgpgZR9lChoK2gh',
  'SwBLAIaUhZRSlGgvaCFLMEsQhpSFlFKUdWJhdWJ1jAxwbGFubmVyX2RhdGGUfZQoahIBAABqEgEAAIWUaiMBAABqIwEAAIWUaPBo8IWUagEBAABqAQEAAIWU',
  'aM5ozoWUaN9o34WUaKxorIWUaL1ovYWUaIpoioWUaJtom4WUaGhoaIWUaHloeYWUaEZoRoWUaFdoV4WUaAdoB4WUaDNoM4WUdYwMc3RvcmFnZV9kYXRhlH2U',
  'KGgAjA1NZXRhZGF0YUluZGV4lJOUKYGUfZQojANmcW6UjCBvcHRpbWl6ZXIuc3RhdGUuZXhwX2F2Zy5sYXllcnMuMJSMBWluZGV4lEsAjAZvZmZzZXSUaCFL',
  'AEsAhpSFlFKUdWKMJ3RvcmNoLmRpc3RyaWJ1dGVkLmNoZWNrcG9pbnQuZmlsZXN5c3RlbZSMDF9TdG9yYWdlSW5mb5STlCmBlH2UKIwNcmVsYXRpdmVfcGF0',
  'aJSMDF9fMF8wLmRpc3RjcJRqTwEAAEsAjAZsZW5ndGiUTSkSdWJqSQEAACmBlH2UKGpMAQAAjCxtb2RlbC5kZWNvZGVyLmxheWVycy4wLm1scC5saW5lYXJf',
  'ZmMxLndlaWdodJRqTgEAAEsAak8BAABoIUsASwCGlIWUUpR1YmpVAQAAKYGUfZQoalgBAACMDF9fMF8xLmRpc3RjcJRqTwEAAEsAaloBAABNKQp1YmpJAQAA',
  'KYGUfZQoakwBAACMLG1vZGVsLmRlY29kZXIubGF5ZXJzLjEubWxwLmxpbmVhcl9mYzEud2VpZ2h0lGpOAQAASwBqTwEAAGghSwBLAIaUhZRSlHVialUBAAAp',
  'gZR9lChqWAEAAIwMX18xXzEuZGlzdGNwlGpPAQAASwBqWgEAAE0pCnViakkBAAApgZR9lChqTAEAAIwgb3B0aW1pemVyLnN0YXRlLmV4cF9hdmcubGF5ZXJz',
  'LjGUak4BAABLAGpPAQAAaCFLAEsAhpSFlFKUdWJqVQEAACmBlH2UKGpYAQAAjAxfXzFfMC5kaXN0Y3CUak8BAABLAGpaAQAATSkSdWJqSQEAACmBlH2UKGpM',
  'AQAAjCxtb2RlbC5kZWNvZGVyLmxheWVycy4yLm1scC5saW5lYXJfZmMxLndlaWdodJRqTgEAAEsAak8BAABoIUsASwCGlIWUUpR1YmpVAQAAKYGUfZQoalgB',
  'AACMDF9fMl8xLmRpc3RjcJRqTwEAAEsAaloBAABNKQp1YmpJAQAAKYGUfZQoakwBAACMIG9wdGltaXplci5zdGF0ZS5leHBfYXZnLmxheWVycy4ylGpOAQAA',
  'SwBqTwEAAGghSwBLAIaUhZRSlHVialUBAAApgZR9lChqWAEAAIwMX18yXzAuZGlzdGNwlGpPAQAASwBqWgEAAE0pEnViakkBAAApgZR9lChqTAEAAIwsbW9k',
  'ZWwuZGVjb2Rlci5sYXllcnMuMy5tbHAubGluZWFyX2ZjMS53ZWlnaHSUak4BAABLAGpPAQAAaCFLAEsAhpSFlFKUdWJqVQEAACmBlH2UKGpYAQAAjAxfXzNf',
  'MS5kaXN0Y3CUak8BAABLAGpaAQAATSkKdWJqSQEAACmBlH2UKGpMAQAAjCBvcHRpbWl6ZXIuc3RhdGUuZXhwX2F2Zy5sYXllcnMuM5RqTgEAAEsAak8BAABo',
  'IUsASwCGlIWUUpR1YmpVAQAAKYGUfZQoalgBAACMDF9fM18wLmRpc3RjcJRqTwEAAEsAaloBAABNKRJ1YmpJAQAAKYGUfZQoakwBAACMLG1vZGVsLmRlY29k',
  'ZXIubGF5ZXJzLjQubWxwLmxpbmVhcl9mYzEud2VpZ2h0lGpOAQAASwBqTwEAAGghSwBLAIaUhZRSlHVialUBAAApgZR9lChqWAEAAIwMX180XzEuZGlzdGNw',
  'lGpPAQAASwBqWgEAAE0pCnViakkBAAApgZR9lChqTAEAAIwgb3B0aW1pemVyLnN0YXRlLmV4cF9hdmcubGF5ZXJzLjSUak4BAABLAGpPAQAAaCFLAEsAhpSF',
  'lFKUdWJqVQEAACmBlH2UKGpYAQAAjAxfXzRfMC5kaXN0Y3CUak8BAABLAGpaAQAATSkSdWJqSQEAACmBlH2UKGpMAQAAjCBvcHRpbWl6ZXIuc3RhdGUuZXhw',
  'X2F2Zy5sYXllcnMuNZRqTgEAAEsAak8BAABoIUsASwCGlIWUUpR1YmpVAQAAKYGUfZQoalgBAACMDF9fNV8wLmRpc3RjcJRqTwEAAEsAaloBAABNKRJ1YmpJ',
  'AQAAKYGUfZQoakwBAACMLG1vZGVsLmRlY29kZXIubGF5ZXJzLjUubWxwLmxpbmVhcl9mYzEud2VpZ2h0lGpOAQAASwBqTwEAAGghSwBLAIaUhZRSlHVialUB',
  'AAApgZR9lChqWAEAAIwMX181XzEuZGlzdGNwlGpPAQAASwBqWgEAAE0pCnViakkBAAApgZR9lChqTAEAAIwsbW9kZWwuZGVjb2Rlci5sYXllcnMuNi5tbHAu',
  'bGluZWFyX2ZjMS53ZWlnaHSUak4BAABLAGpPAQAAaCFLAEsAhpSFlFKUdWJqVQEAACmBlH2UKGpYAQAAjAxfXzZfMS5kaXN0Y3CUak8BAABLAGpaAQAATSkK',
  'dWJqSQEAACmBlH2UKGpMAQAAjCBvcHRpbWl6ZXIuc3RhdGUuZXhwX2F2Zy5sYXllcnMuNpRqTgEAAEsAak8BAABoIUsASwCGlIWUUpR1YmpVAQAAKYGUfZQo',
  'algBAACMDF9fNl8wLmRpc3RjcJRqTwEAAEsAaloBAABNKRJ1YmpJAQAAKYGUfZQoakwBAACMLG1vZGVsLmRlY29kZXIubGF5ZXJzLjcubWxwLmxpbmVhcl9m',
  'YzEud2VpZ2h0lGpOAQAASwBqTwEAAGghSwBLAIaUhZRSlHVialUBAAApgZR9lChqWAEAAIwMX183XzEuZGlzdGNwlGpPAQAASwBqWgEAAE0pCnViakkBAAAp',
  'gZR9lChqTAEAAIwgb3B0aW1pemVyLnN0YXRlLmV4cF9hdmcubGF5ZXJzLjeUak4BAABLAGpPAQAAaCFLAEsAhpSFlFKUdWJqVQEAACmBlH2UKGpYAQAAjAxf',
  'XzdfMC5kaXN0Y3CUak8BAABLAGpaAQAATSkSdWJ1jAxzdG9yYWdlX21ldGGUaACMC1N0b3JhZ2VNZXRhlJOUKYGUfZQojA1jaGVja3BvaW50X2lklIwHcGF0',
  'aGxpYpSMCVBvc2l4UGF0aJSTlCiMAS+UjAR3b3JrlIwCd3SUjAlpbnRlZ3JpdHmUjAR0ZXN0lIwIZml4dHVyZXOUjAtjaGVja3BvaW50c5SMBGRlbW+UdJRS',
  'lIwHc2F2ZV9pZJSMJDRmNTFmNDU2LWRiN2QtNDZkYi04NDg0LTI1MGMzYzkwYjViY5SMB2xvYWRfaWSUTowHbW9kdWxlc5RdlHVijAd2ZXJzaW9ulIwFMS4w',
  'LjCUdWIu',
].join('');

export const DEMO_METADATA: Buffer = Buffer.from(METADATA_BASE64, 'base64');

/** The shard files the `.metadata` names and the bytes each holds, read the way `rlrb check` reads them. */
export function demoShardSizes(): Record<string, number> {
  const md = readDistcpMetadata(DEMO_METADATA);
  if (!md.ok) throw new Error(`the demo's .metadata cannot be read: ${md.reason}`);
  return md.needBytes;
}

/**
 * A torch_dist iteration folder. `broken`: as an interrupted upload leaves it, one shard never
 * arrived and another stopped at half its bytes.
 */
export function writeDemoResume(dir: string, fill: (n: number) => Buffer, broken: boolean): void {
  writeFileSync(join(dir, '.metadata'), DEMO_METADATA);
  const sizes = Object.entries(demoShardSizes());
  for (const [i, [name, size]] of sizes.entries()) {
    if (broken && i === sizes.length - 3) continue;
    writeFileSync(join(dir, name), fill(broken && i === 6 ? Math.floor(size / 2) : size));
  }
}

export interface DemoTensor {
  name: string;
  shape: number[];
}

/** A safetensors file of BF16 tensors: 8 bytes of header length, the JSON header padded with spaces to 8 bytes, then the data. */
export function safetensorsBytes(tensors: DemoTensor[], fill: (n: number) => Buffer): Buffer {
  const header: Record<string, unknown> = { __metadata__: { format: 'pt' } };
  let offset = 0;
  for (const t of tensors) {
    const n = t.shape.reduce((a, b) => a * b, 1) * 2;
    header[t.name] = { dtype: 'BF16', shape: t.shape, data_offsets: [offset, offset + n] };
    offset += n;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(json.length));
  return Buffer.concat([len, Buffer.from(json, 'utf8'), fill(offset)]);
}
