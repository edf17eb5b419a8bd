#!/bin/bash
# rngtool.sh - the build/host/rngtool contract (DESIGN "Contracts"), as TAP.
#   kat half_md4 ... -> "RET B0 B1 B2 B3", 8-digit lowercase hex
#   replay ipid-2.6.29 / md4-2.6.30 -> one 8-digit hex u32 per call
#   replay chacha20-batched --base-key HEX64 --count N -> Linux 6.x
#     get_random_u32(), compared with tests/ref/crng_ref.py (written from
#     RFC 8439 and Linux 6.6 random.c, not from rng/)
#   stream -> N u32 (bin: 4N bytes LE; hex: N lines), unavailable -> exit 1
#   bad arguments -> usage on stderr, exit status 2
set -u

here=$(cd "$(dirname "$0")/../.." && pwd)
tool=${RNGTOOL:-$here/build/host/rngtool}
# shellcheck source=SCRIPTDIR/lib/tap.sh
. "$here/tests/sh/lib/tap.sh"

if [ ! -x "$tool" ]; then
	echo "1..0 # SKIP $tool not built"
	exit 0
fi

hex8='^[0-9a-f]{8}$'
secret=01234567,89abcdef,fedcba98,76543210,0badf00d,deadbeef,cafebabe,8badf00d,00000008,00000009,0000000a,0000000b

# ---- kat: the fixed vector of tests/rng/test_rng_primitives.c
out=$("$tool" kat half_md4 67452301 efcdab89 98badcfe 10325476 0 1 2 3 4 5 6 7)
[ "$out" = "f254f422 89700c05 f254f422 ba8639e5 4e2d6a7c" ]
tap_check $? "kat half_md4 known answer"
out=$("$tool" kat half_md4 0 0 0 0 0 0 0 0 0 0 0 0)
echo "$out" | grep -Eq '^[0-9a-f]{8}( [0-9a-f]{8}){4}$'
tap_check $? "kat output is five 8-digit lowercase hex words"
ret=${out%% *}
b1=$(echo "$out" | cut -d' ' -f3)
[ "$ret" = "$b1" ]
tap_check $? "kat RET equals the updated B1 (half_md4 returns buf[1])"

# ---- replay ipid-2.6.29: equal pid + jiffies, equal value; cycles ignored
out=$("$tool" replay ipid-2.6.29 --secret "$secret" 1000:5000:1 999:5001:77 1001:5000:1)
[ "$(echo "$out" | wc -l)" -eq 3 ] && ! echo "$out" | grep -Evq "$hex8"
tap_check $? "replay ipid-2.6.29 prints one 8-digit hex word per call"
l1=$(echo "$out" | sed -n 1p)
l2=$(echo "$out" | sed -n 2p)
l3=$(echo "$out" | sed -n 3p)
[ "$l1" = "$l2" ] && [ "$l1" != "$l3" ]
tap_check $? "replay ipid-2.6.29: same pid+jiffies gives the same value"

# ---- replay md4-2.6.30: the state carries, and --state is the starting hash
out=$("$tool" replay md4-2.6.30 --secret "$secret" 1000:5000:123 1000:5000:123)
[ "$(echo "$out" | sed -n 1p)" != "$(echo "$out" | sed -n 2p)" ]
tap_check $? "replay md4-2.6.30: same environment twice, different outputs"
a=$("$tool" replay md4-2.6.30 --secret "$secret" 1000:5000:123)
b=$("$tool" replay md4-2.6.30 --secret "$secret" --state 0,0,0,0 1000:5000:123)
c=$("$tool" replay md4-2.6.30 --secret "$secret" --state 1,0,0,0 1000:5000:123)
[ "$a" = "$b" ] && [ "$a" != "$c" ]
tap_check $? "replay md4-2.6.30: state defaults to zeros, --state is used"
# hash[0] += pid + jiffies + cycles: only the sum matters
d=$("$tool" replay md4-2.6.30 --secret "$secret" 1123:5000:0)
e=$("$tool" replay md4-2.6.30 --secret "$secret" 0x1:0x1388:0x47b)
[ "$a" = "$d" ] && [ "$e" = "$("$tool" replay md4-2.6.30 --secret "$secret" 1:5000:1147)" ]
tap_check $? "replay md4-2.6.30: pid+jiffies+cycles sum; decimal and 0x hex values"
# first call from a zero state: a kat over the secret's first 8 words
k=$("$tool" kat half_md4 17eb 0 0 0 01234567 89abcdef fedcba98 76543210 0badf00d deadbeef cafebabe 8badf00d)
[ "$a" = "${k%% *}" ]
tap_check $? "replay md4-2.6.30 equals kat half_md4 {0x17eb,0,0,0} over secret[0..7]"

# ---- stream
out=$("$tool" stream chacha20-batched --seed 0102 --count 5 --format hex)
[ "$(echo "$out" | wc -l)" -eq 5 ] && ! echo "$out" | grep -Evq "$hex8"
tap_check $? "stream --format hex: N lines of 8-digit hex"
[ "$("$tool" stream md4-2.6.30 --count 1000 | wc -c)" -eq 4000 ]
tap_check $? "stream --format bin (default): 4 bytes per u32"
x=$("$tool" stream md4-2.6.30 --seed ab --count 2 --format bin | od -An -tx4 -w8 | tr -s ' ' | sed 's/^ //')
y=$("$tool" stream md4-2.6.30 --seed ab --count 2 --format hex | tr '\n' ' ' | sed 's/ $//')
[ "$x" = "$y" ]
tap_check $? "stream bin is little-endian, same words as hex"
[ "$("$tool" stream ipid-2.6.29 --format hex | wc -l)" -eq 16 ]
tap_check $? "stream hex default count is 16"
[ "$("$tool" stream prandom | head -c 1000000 | wc -c)" -eq 1000000 ]
tap_check $? "stream bin default is unbounded (1 MB read through a pipe)"
s1=$("$tool" stream sha1-mackall --seed 00ff --count 4 --format hex)
s2=$("$tool" stream sha1-mackall --seed 00ff --count 4 --format hex)
s3=$("$tool" stream sha1-mackall --seed 00fe --count 4 --format hex)
[ "$s1" = "$s2" ] && [ "$s1" != "$s3" ]
tap_check $? "stream is deterministic for a seed"
for v in $("$tool" list | awk '$3 == "available" {print $1}'); do
	"$tool" stream "$v" --count 4 --format hex >/dev/null
	tap_check $? "stream $v runs"
done
for v in $("$tool" list | awk '$3 == "unavailable" {print $1}'); do
	"$tool" stream "$v" --count 4 >/dev/null 2>&1
	[ $? -eq 1 ]
	tap_check $? "stream $v (unavailable) exits 1"
done

# ---- bad arguments: usage on stderr, exit status 2, nothing on stdout
bad() { # description args...
	local d=$1 rc err outp
	shift
	outp=$("$tool" "$@" 2>/tmp/rngtool.err.$$)
	rc=$?
	err=$(cat /tmp/rngtool.err.$$)
	rm -f /tmp/rngtool.err.$$
	[ $rc -eq 2 ] && [ -z "$outp" ] && echo "$err" | grep -q '^usage:'
	tap_check $? "exit 2 + usage: $d"
}
bad "no command"
bad "unknown command" frobnicate
bad "kat unknown primitive" kat md5 0 0 0 0 0 0 0 0 0 0 0 0
bad "kat too few words" kat half_md4 0 0 0 0 0 0 0 0 0 0 0
bad "kat too many words" kat half_md4 0 0 0 0 0 0 0 0 0 0 0 0 0
bad "kat non-hex word" kat half_md4 0 0 0 0 0 0 0 0 0 0 0 xyz
bad "kat word over 32 bits" kat half_md4 0 0 0 0 0 0 0 0 0 0 0 123456789
bad "replay unknown variant" replay md4-2.6.31 --secret "$secret" 1:2:3
bad "replay variant without replay" replay chacha20-wide --secret "$secret" 1:2:3
bad "replay chacha20-batched --secret" replay chacha20-batched --secret "$secret" 1:2:3
bad "replay chacha20-batched short key" replay chacha20-batched --base-key 0011 --count 1
bad "replay chacha20-batched non-hex key" replay chacha20-batched --base-key "$(printf 'g%.0s' $(seq 64))" --count 1
bad "replay chacha20-batched --count 0" replay chacha20-batched --base-key "$(printf '0%.0s' $(seq 64))" --count 0
bad "replay chacha20-batched no --count" replay chacha20-batched --base-key "$(printf '0%.0s' $(seq 64))"
bad "replay chacha20-batched --count without value" replay chacha20-batched --count
bad "replay missing --secret" replay ipid-2.6.29 1:2:3
bad "replay --secret without value" replay ipid-2.6.29 --secret
bad "replay secret with 11 words" replay ipid-2.6.29 --secret 1,2,3,4,5,6,7,8,9,a,b 1:2:3
bad "replay secret with 13 words" replay ipid-2.6.29 --secret "$secret,1" 1:2:3
bad "replay secret non-hex" replay ipid-2.6.29 --secret 1,2,3,4,5,6,7,8,9,a,b,g 1:2:3
bad "replay state with 3 words" replay md4-2.6.30 --secret "$secret" --state 1,2,3 1:2:3
bad "replay no calls" replay md4-2.6.30 --secret "$secret"
bad "replay call missing a field" replay md4-2.6.30 --secret "$secret" 1:2
bad "replay call non-numeric" replay md4-2.6.30 --secret "$secret" 1:2:x
bad "replay second call bad" replay ipid-2.6.29 --secret "$secret" 1:2:3 1:2
bad "stream unknown variant" stream nope --count 1
bad "stream missing variant" stream
bad "stream --count without value" stream prandom --count
bad "stream --count 0" stream prandom --count 0
bad "stream --count non-numeric" stream prandom --count ten
bad "stream bad --format" stream prandom --format dec --count 1
bad "stream non-hex --seed" stream prandom --seed xyz --count 1
bad "stream unknown option" stream prandom --colour red

# ---- replay chacha20-batched against the independent reference: 300 values
# (12.5 batches: the per-CPU key derivation, 12 refills by fast key erasure)
ref=$here/tests/ref/crng_ref.py
if command -v python3 >/dev/null && python3 "$ref" --selftest >/dev/null; then
	tap_check 0 "crng_ref.py: ChaCha20 block matches RFC 8439 2.3.2"
	for key in 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f \
		0000000000000000000000000000000000000000000000000000000000000000 \
		f0e1d2c3b4a5968778695a4b3c2d1e0ffedcba98765432100123456789abcdef; do
		a=$("$tool" replay chacha20-batched --base-key "$key" --count 300)
		b=$(python3 "$ref" "$key" 300)
		[ "$(echo "$a" | wc -l)" -eq 300 ] && [ "$a" = "$b" ]
		tap_check $? "replay chacha20-batched = Linux 6.x reference, 300 values, key ${key:0:8}.."
	done
	# the u16, u32 and u64 batches interleaved as one 6.x spawn draws them
	# (canary, two mmap bases, stack top: u64; two arch_align_stack: u16; brk:
	# u64), then a u32: every batch refill advances the one per-CPU key
	w=64,64,64,64,16,16,64,32
	wa=$("$tool" replay chacha20-batched --base-key "$key" --count 400 --widths "$w")
	wb=$(python3 "$ref" "$key" 400 "$w")
	[ "$(echo "$wa" | wc -l)" -eq 400 ] && [ "$wa" = "$wb" ]
	tap_check $? "replay chacha20-batched --widths $w = Linux 6.12 reference, 400 values"
	bad "replay --widths 48" replay chacha20-batched --base-key "$key" --count 1 --widths 48
	bad "replay --widths empty entry" replay chacha20-batched --base-key "$key" --count 1 --widths 16,,64
	# --inputs: the base key from the 6.x input pool after recorded inputs
	# (BLAKE2s mixes over several lines and blocks, three extractions)
	inp=$(mktemp)
	{
		echo "# a comment"
		echo "mix $(printf '%02x' $(seq 0 99))"
		echo "mix 00ff"
		echo "extract $(printf '%02x' $(seq 1 32))"
		echo
		echo "mix $(printf '%02x' $(seq 100 250))"
		echo "extract $(printf '%02x' $(seq 33 64))"
		echo "extract $(printf '%02x' $(seq 65 96))"
	} >"$inp"
	ia=$("$tool" replay chacha20-batched --inputs "$inp" --count 100 --widths "$w")
	ib=$(python3 "$ref" --inputs "$inp" 100 "$w")
	[ "$(echo "$ia" | wc -l)" -eq 100 ] && [ "$ia" = "$ib" ]
	tap_check $? "replay chacha20-batched --inputs = Linux 6.12 input pool reference, 100 values"
	printf 'mix 00\n' >"$inp"
	bad "replay --inputs without an extract" replay chacha20-batched --inputs "$inp" --count 1
	printf 'mix 0\nextract %064d\n' 0 >"$inp"
	bad "replay --inputs odd hex" replay chacha20-batched --inputs "$inp" --count 1
	printf 'extract 00\n' >"$inp"
	bad "replay --inputs short extract" replay chacha20-batched --inputs "$inp" --count 1
	printf 'stir 00\n' >"$inp"
	bad "replay --inputs unknown line" replay chacha20-batched --inputs "$inp" --count 1
	bad "replay --inputs and --base-key" replay chacha20-batched --inputs "$inp" --base-key "$key" --count 1
	rm -f "$inp"
	bad "replay --inputs no such file" replay chacha20-batched --inputs /nonexistent/in --count 1
	# the first value alone depends on the key derivation and batch layout
	[ "$("$tool" replay chacha20-batched --base-key "$key" --count 1)" = "$(echo "$b" | head -1)" ]
	tap_check $? "replay chacha20-batched --count 1 is the first value"
else
	tap_check 1 "python3 and tests/ref/crng_ref.py needed for the chacha20-batched vectors"
fi

bad "bench unknown variant" bench 100 md4-2.6.3
bad "bench N of 0" bench 0
# A bad argument is the error and one line of usage, not the whole text.
"$tool" bench md4-2.6.3 2>&1 >/dev/null | wc -l | grep -qx 2
tap_check $? "bench unknown variant: two lines on stderr"
# bench VARIANT...: only the named variants, in the order given.
outp=$("$tool" bench 1000 md4-2.6.30 prandom 2>&1)
[ "$(echo "$outp" | awk '!/^#/ {print $1}' | paste -sd,)" = "md4-2.6.30,prandom" ] &&
	echo "$outp" | awk '!/^#/ && !($2 > 0) {exit 1}'
tap_check $? "bench 1000 md4-2.6.30 prandom: those two, cycles > 0"
outp=$("$tool" bench md4-2.6.30 2>&1)
[ "$(echo "$outp" | grep -vc '^#')" = 1 ] && echo "$outp" | grep -q '^# .* of 1000000 calls'
tap_check $? "bench md4-2.6.30: one variant, default N"

# --help and --version: stdout, exit 0 (errors stay on stderr, exit 2).
outp=$("$tool" --help 2>/dev/null)
tap_check $? "--help exits 0"
echo "$outp" | grep -q '^  rngtool stream <variant>'
tap_check $? "--help: the full usage on stdout"
outp=$("$tool" --version 2>/dev/null)
tap_check $? "--version exits 0"
echo "$outp" | grep -qE '^rngtool \(aslrbench\) [0-9A-Za-z._-]+$'
tap_check $? "--version names the build: $outp"

tap_done
