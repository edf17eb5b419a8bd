#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""crng_ref.py - an independent reference for Linux 6.x get_random_u32().

Written from RFC 8439 (the ChaCha20 block function) and Linux 6.6
drivers/char/random.c (crng_fast_key_erasure, crng_make_state,
_get_random_bytes, DEFINE_BATCHED_ENTROPY), not from this project's C:

  crng_fast_key_erasure(key, state, out, n): state = consts | key | 0,0,0,0;
      block = chacha20_block(state) (state[12] becomes 1); key = block[0:32];
      out = block[32:32+n]
  crng_make_state(): if crngs.generation != base_crng.generation, the per-CPU
      key is derived by fast key erasure on base_crng.key; then fast key
      erasure on the per-CPU key gives the first 32 bytes
  _get_random_bytes(buf, 96): 32 bytes from crng_make_state, then
      chacha20_block() of the detached state (counter 1) for the last 64
  get_random_u32(): batch of CHACHA_BLOCK_SIZE * 3 / (2 * 4) = 24 u32
      (little endian), served from index 0, refilled when exhausted
  get_random_u16(), get_random_u64() (Linux 6.12 DEFINE_BATCHED_ENTROPY(u16),
      (u64)): their own 96-byte batches, 48 u16 or 12 u64, each refilled by
      its own _get_random_bytes(96) from the same per-CPU key

The base key after a reseed, from Linux 6.12 drivers/char/random.c's input
pool (a BLAKE2s state, unkeyed with a 32-byte digest, updated by
_mix_pool_bytes) and extract_entropy() (seed = the pool's digest; the pool
re-keyed with BLAKE2s(key=seed, RDSEED || 0); output block i =
BLAKE2s(key=seed, RDSEED || i), i from 1, RDSEED four little-endian longs,
the counter a little-endian size_t), with Python's hashlib.blake2s:

  inputs FILE: lines "mix HEX" (bytes mixed into the pool, in order) and
      "extract HEX64" (one 32-byte extraction's block.rdseed: a reseed);
      '#' lines and blank lines are ignored; the last extract is the key

usage: crng_ref.py BASE_KEY_HEX64 COUNT [WIDTHS]  (WIDTHS: e.g. 64,16,32,
           repeated; one value per line in 4, 8 or 16 hex digits; default 32)
       crng_ref.py --inputs FILE COUNT [WIDTHS]   (the base key from FILE)
       crng_ref.py --selftest             (RFC 8439 2.3.2 block vector)
"""
import hashlib
import struct
import sys

MASK = 0xFFFFFFFF


def rotl(v, c):
    return ((v << c) & MASK) | (v >> (32 - c))


def quarter(x, a, b, c, d):
    x[a] = (x[a] + x[b]) & MASK; x[d] = rotl(x[d] ^ x[a], 16)
    x[c] = (x[c] + x[d]) & MASK; x[b] = rotl(x[b] ^ x[c], 12)
    x[a] = (x[a] + x[b]) & MASK; x[d] = rotl(x[d] ^ x[a], 8)
    x[c] = (x[c] + x[d]) & MASK; x[b] = rotl(x[b] ^ x[c], 7)


def chacha20_block(state):
    """RFC 8439 2.3; like Linux's chacha20_block, increments state[12]."""
    x = list(state)
    for _ in range(10):
        quarter(x, 0, 4, 8, 12); quarter(x, 1, 5, 9, 13)
        quarter(x, 2, 6, 10, 14); quarter(x, 3, 7, 11, 15)
        quarter(x, 0, 5, 10, 15); quarter(x, 1, 6, 11, 12)
        quarter(x, 2, 7, 8, 13); quarter(x, 3, 4, 9, 14)
    out = struct.pack('<16I', *[(x[i] + state[i]) & MASK for i in range(16)])
    state[12] = (state[12] + 1) & MASK
    return out


CONSTS = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]


def fast_key_erasure(key, n):
    state = CONSTS + list(struct.unpack('<8I', key)) + [0, 0, 0, 0]
    block = chacha20_block(state)
    return block[:32], block[32:32 + n], state


def get_random_u32_stream(base_key, count):
    # the per-CPU key is stale: derive it from the base key first
    base_key, cpu_key, _ = fast_key_erasure(base_key, 32)
    out = []
    while len(out) < count:
        cpu_key, first, state = fast_key_erasure(cpu_key, 32)
        batch = first + chacha20_block(state)          # 96 bytes
        out.extend(struct.unpack('<24I', batch))
    return out[:count]


def get_random_mixed(base_key, count, widths):
    """Draws from the u16/u32/u64 batches in the order WIDTHS names them."""
    base_key, cpu_key, _ = fast_key_erasure(base_key, 32)
    batches = {w: [] for w in (16, 32, 64)}
    out = []
    for k in range(count):
        w = widths[k % len(widths)]
        if not batches[w]:
            cpu_key, first, state = fast_key_erasure(cpu_key, 32)
            raw = first + chacha20_block(state)
            n = len(raw) * 8 // w
            batches[w] = list(struct.unpack('<%d%s' % (n, {16: 'H', 32: 'I', 64: 'Q'}[w]), raw))
        out.append('%0*x' % (w // 4, batches[w].pop(0)))
    return out


def pool_replay(lines):
    """The base key of the last reseed described by the inputs file's lines."""
    pool = hashlib.blake2s(digest_size=32)
    key = None
    for line in lines:
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        kind, _, arg = line.partition(' ')
        data = bytes.fromhex(arg.strip())
        if kind == 'mix':
            pool.update(data)
        elif kind == 'extract' and len(data) == 32:
            seed = pool.digest()
            next_key = hashlib.blake2s(data + struct.pack('<Q', 0), key=seed).digest()
            pool = hashlib.blake2s(digest_size=32, key=next_key)
            key = hashlib.blake2s(data + struct.pack('<Q', 1), key=seed).digest()
        else:
            raise ValueError('bad inputs line: %r' % line)
    if key is None:
        raise ValueError('no extract line: no reseed to replay')
    return key


def selftest():
    key = bytes(range(32))
    nonce = bytes.fromhex('000000090000004a00000000')
    state = CONSTS + list(struct.unpack('<8I', key)) + [1] + list(struct.unpack('<3I', nonce))
    want = bytes.fromhex(
        '10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e'
        'd2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e')
    return chacha20_block(state) == want


def main(argv):
    if len(argv) == 2 and argv[1] == '--selftest':
        ok = selftest()
        print('chacha20 RFC 8439 2.3.2:', 'ok' if ok else 'MISMATCH')
        return 0 if ok else 1
    if len(argv) in (4, 5) and argv[1] == '--inputs':
        with open(argv[2]) as f:
            key = pool_replay(f)
        return main([argv[0], key.hex()] + argv[3:])
    if len(argv) not in (3, 4) or len(argv[1]) != 64:
        sys.stderr.write(__doc__)
        return 2
    if len(argv) == 4:
        widths = [int(w) for w in argv[3].split(',')]
        for v in get_random_mixed(bytes.fromhex(argv[1]), int(argv[2]), widths):
            print(v)
        return 0
    for v in get_random_u32_stream(bytes.fromhex(argv[1]), int(argv[2])):
        print('%08x' % v)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
