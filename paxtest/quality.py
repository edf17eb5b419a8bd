#!/usr/bin/env python3
"""quality.py: paxtest's randomisation estimator, on addresses from stdin.

usage: quality.py [--count N] [--mmap BITS] < ADDRESSES   (one hex number a line)

Prints what paxtest 0.9.15's randbody.c prints for the first N addresses
(default 1500, its COUNT): "No randomization" when they are all equal, else
"B quality bits (guessed)", B = the bits that differ between the addresses
minus the "weak" ones among them, set in at most 35 % or at least 65 % of
them.  Nothing else enters: not the order of the addresses, not repeats (its
`dupes` counter is never used), not whether the next one can be computed
from the last.  So a sequence anyone can predict gets full marks, e.g.
  seq 0 1499 | awk '{ printf "%x\\n", $1 * 2654435761 % 2^28 }' |
  paxtest/quality.py                                  # 28 quality bits
With --mmap BITS each number is a get_random_int() value (`rngtool stream
VARIANT --format hex`) and the address is 2.6.29's mmap base for it,
0x7ff000000000 - (value % 2^BITS) pages (arch/x86/mm/mmap.c mmap_rnd(), below
a fixed top): what paxtest's randamap would see
of that variant's stream, one value per exec.
Exit status: 0 printed; 2 bad input (a line that is not hex, fewer than N).
"""
import sys

COUNT = 1500


def quality(addrs):
    """randbody.c's verdict on a list of addresses (ints)."""
    and_, or_ = ~0, 0
    for a in addrs:
        and_ &= a
        or_ |= a
    if and_ == or_:
        return "No randomization"
    changed = or_ & ~(and_ ^ ~or_)      # randbody.c's tmp: the bits that change
    bits = weak = 0
    for i in range(64):
        if not changed >> i & 1:
            continue
        bits += 1
        ones = sum(1 for a in addrs if a >> i & 1)
        if ones <= len(addrs) * 35 // 100 or ones >= len(addrs) * 65 // 100:
            weak += 1
    return f"{bits - weak} quality bits (guessed)"


def main(argv):
    count, mmap, args = COUNT, None, argv[1:]
    while args:
        if len(args) < 2 or not args[1].isdigit() or args[0] not in ("--count", "--mmap"):
            print(__doc__, file=sys.stderr)
            return 2
        if args[0] == "--count":
            count = int(args[1])
        else:
            mmap = int(args[1])
        args = args[2:]
    if count < 1 or (mmap is not None and not 1 <= mmap <= 32):
        print("quality.py: --count wants 1 or more, --mmap 1 to 32", file=sys.stderr)
        return 2
    addrs = []
    for n, line in enumerate(sys.stdin, 1):
        if len(addrs) == count:
            break
        try:
            a = int(line.strip(), 16)
        except ValueError:
            print(f"quality.py: line {n}: not a hex address: {line.strip()!r}", file=sys.stderr)
            return 2
        if not 0 <= a < 1 << 64:
            print(f"quality.py: line {n}: not a 64-bit address", file=sys.stderr)
            return 2
        if mmap is not None:
            a = 0x7FF000000000 - ((a & 0xFFFFFFFF) % (1 << mmap) << 12)
        addrs.append(a)
    if len(addrs) < count:
        print(f"quality.py: {len(addrs)} addresses, want {count}", file=sys.stderr)
        return 2
    print(quality(addrs))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
