/*
 * __vdso_getrandom: getrandom(2) in user space, as Linux 6.12's vDSO serves
 * it (lib/vdso/getrandom.c, arch/x86/entry/vdso/vgetrandom*), linked into
 * the aslr_rules=6.x image only (vdso.mk, vdso612.so).
 *
 * The protocol is 6.12's.  A call with buffer NULL, len 0, flags 0 and
 * opaque_len ~0 fills a struct vgetrandom_opaque_params: the size of the
 * per-thread state (144 bytes) and the prot and flags to mmap it with
 * (PROT_READ|PROT_WRITE, MAP_DROPPABLE|MAP_ANONYMOUS: wiped on fork).
 * Every other call takes such a state: its key comes from the getrandom
 * system call whenever its generation differs from [vvar]'s (the kernel
 * advances that on every crng reseed, kernel/mm/vdso.c), and ChaCha20
 * under that key with fast key erasure fills the batch: two blocks, the
 * first 96 bytes served (each zeroed as it is copied out), the last 32 the
 * next key.  The system call answers instead when the flags hold more than
 * GRND_NONBLOCK|GRND_RANDOM|GRND_INSECURE, the state's size is wrong, the
 * crng is not ready, or the state is in use (a signal handler re-entering
 * with it); a state straddling a page is -EFAULT.
 *
 * Unlike the clock functions this file uses SSE (one ChaCha20 block per
 * pass, the four rows in four registers, as 6.12's SSE2 vgetrandom-chacha.S
 * does): user-space code, nothing to save.  No stack holds key material:
 * the block function keeps its state in registers (and 6.12's is
 * "nostack" for that reason); the state's own memory holds it otherwise.
 */
#include <stddef.h>
#include <stdint.h>

#include "kernel/uapi/vvar.h"

#define NR_getrandom  318
#define GRND_NONBLOCK 0x1
#define GRND_RANDOM   0x2
#define GRND_INSECURE 0x4
#define PROT_READ     0x1
#define PROT_WRITE    0x2
#define MAP_ANONYMOUS 0x20
#define MAP_DROPPABLE 0x08
#define EFAULT	      14
#define VPAGE_SIZE    4096UL
#define MAX_RW_COUNT  (0x7fffffffUL & ~(VPAGE_SIZE - 1))
#define CHACHA_BLOCK  64
#define CHACHA_KEY    32

extern const struct vvar_data vvar_page __attribute__((visibility("hidden")));

/* 6.12's include/vdso/getrandom.h layouts (the state is opaque to user space but for its size) */
struct vgetrandom_state {
	union {
		struct {
			uint8_t batch[CHACHA_BLOCK * 3 / 2];
			uint32_t key[CHACHA_KEY / sizeof(uint32_t)];
		};
		uint8_t batch_key[CHACHA_BLOCK * 2];
	};
	uint64_t generation;
	uint8_t pos;
	uint8_t in_use;
};

struct vgetrandom_opaque_params {
	uint32_t size_of_opaque_state;
	uint32_t mmap_prot;
	uint32_t mmap_flags;
	uint32_t reserved[13];
};

_Static_assert(sizeof(struct vgetrandom_state) == 144, "6.12's state size");

typedef uint32_t v4 __attribute__((vector_size(16)));
typedef uint32_t v4u __attribute__((vector_size(16), aligned(1)));
typedef uint8_t v16b __attribute__((vector_size(16)));

static long getrandom_syscall(void *buf, size_t len, unsigned int flags)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"((long)NR_getrandom), "D"(buf), "S"(len), "d"((unsigned long)flags)
			 : "rcx", "r11", "memory");
	return ret;
}

static inline v4 rotl(v4 x, int n)
{
	return (x << n) | (x >> (32 - n));
}

/* rotations by 16 swap each word's halves: two shuffles (pshuflw, pshufhw) instead of three ops */
static inline v4 rotl16(v4 x)
{
	typedef uint16_t v8h __attribute__((vector_size(16)));

	return (v4)__builtin_shuffle((v8h)x, (v8h){1, 0, 3, 2, 5, 4, 7, 6});
}

#define QUARTER_ROWS(a, b, c, d)                                                                   \
	do {                                                                                       \
		a += b;                                                                            \
		d = rotl16(d ^ a);                                                                 \
		c += d;                                                                            \
		b = rotl(b ^ c, 12);                                                               \
		a += b;                                                                            \
		d = rotl(d ^ a, 8);                                                                \
		c += d;                                                                            \
		b = rotl(b ^ c, 7);                                                                \
	} while (0)

/*
 * nblocks ChaCha20 blocks under key (8 words) with the 64-bit block counter
 * *counter and a zero nonce, into dst (any alignment); the counter advances.
 * dst may overlap key: the key is read before the first store.
 */
static void chacha20_blocks(uint8_t *dst, const uint32_t *key, uint64_t *counter, size_t nblocks)
{
	const v4 k0 = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574}; /* "expand 32-byte k" */
	const v4 k1 = *(const v4u *)key, k2 = *(const v4u *)(key + 4);
	uint64_t ctr = *counter;

	while (nblocks--) {
		const v4 k3 = {(uint32_t)ctr, (uint32_t)(ctr >> 32), 0, 0};
		v4 a = k0, b = k1, c = k2, d = k3;

		for (int i = 0; i < 10; i++) {
			QUARTER_ROWS(a, b, c, d);
			b = __builtin_shuffle(b, (v4){1, 2, 3, 0});
			c = __builtin_shuffle(c, (v4){2, 3, 0, 1});
			d = __builtin_shuffle(d, (v4){3, 0, 1, 2});
			QUARTER_ROWS(a, b, c, d);
			b = __builtin_shuffle(b, (v4){3, 0, 1, 2});
			c = __builtin_shuffle(c, (v4){2, 3, 0, 1});
			d = __builtin_shuffle(d, (v4){1, 2, 3, 0});
		}
		*(v4u *)dst = a + k0;
		*(v4u *)(dst + 16) = b + k1;
		*(v4u *)(dst + 32) = c + k2;
		*(v4u *)(dst + 48) = d + k3;
		dst += CHACHA_BLOCK;
		ctr++;
	}
	*counter = ctr;
}

/* Copies len bytes out and zeroes them behind (forward secrecy), eight bytes at a time first. */
static inline void copy_and_zero(uint8_t *dst, uint8_t *src, size_t len)
{
	typedef uint64_t u64u __attribute__((aligned(1), may_alias));
	typedef uint32_t u32u __attribute__((aligned(1), may_alias));

	for (; len >= 8; len -= 8, dst += 8, src += 8) {
		*(u64u *)dst = *(u64u *)src;
		*(u64u *)src = 0;
	}
	if (len >= 4) {
		*(u32u *)dst = *(u32u *)src;
		*(u32u *)src = 0;
		len -= 4, dst += 4, src += 4;
	}
	for (; len; len--)
		*dst++ = *src, *src++ = 0;
}

#define READ_ONCE(x)	 __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define barrier()	 __asm__ volatile("" ::: "memory")

/*
 * 6.12's __cvdso_getrandom_data, whole.  retried: the fast path below
 * served the request but saw the generation move meanwhile, so this starts
 * over once with the state already marked in use, as 6.12's retry does.
 */
static __attribute__((noinline)) long getrandom_slow(void *buffer, size_t len, unsigned int flags,
						     void *opaque_state, size_t opaque_len,
						     int retried)
{
	const volatile struct vdso_rng_data *rng = &vvar_page.rng;
	struct vgetrandom_state *state = opaque_state;
	size_t ret = len < MAX_RW_COUNT ? len : MAX_RW_COUNT, orig_len = len, batch_len, nblocks;
	uint8_t *out = buffer;
	uint64_t generation, counter = 0;

	if (retried)
		goto retry;
	if (__builtin_expect(opaque_len == ~0UL && !buffer && !len && !flags, 0)) {
		struct vgetrandom_opaque_params *p = opaque_state;

		p->size_of_opaque_state = sizeof(*state);
		p->mmap_prot = PROT_READ | PROT_WRITE;
		p->mmap_flags = MAP_DROPPABLE | MAP_ANONYMOUS;
		for (size_t i = 0; i < sizeof(p->reserved) / sizeof(p->reserved[0]); i++)
			p->reserved[i] = 0;
		return 0;
	}
	if (__builtin_expect(
		    ((uintptr_t)opaque_state & (VPAGE_SIZE - 1)) + sizeof(*state) > VPAGE_SIZE, 0))
		return -EFAULT;
	if (__builtin_expect(flags & ~(unsigned)(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE), 0) ||
	    __builtin_expect(opaque_len != sizeof(*state), 0) ||
	    __builtin_expect(!rng->is_ready, 0))
		goto fallback;
	if (!len)
		return 0;
	if (__builtin_expect(READ_ONCE(state->in_use), 0))
		goto fallback;
	WRITE_ONCE(state->in_use, 1);

retry:
	generation = rng->generation;
	if (__builtin_expect(state->generation != generation, 0)) {
		/* written before the key is fetched: a fork in between still tells parent from
		 * child */
		WRITE_ONCE(state->generation, generation);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (getrandom_syscall(state->key, sizeof(state->key), 0) != sizeof(state->key)) {
			WRITE_ONCE(state->generation, 0);
			WRITE_ONCE(state->in_use, 0);
			goto fallback;
		}
		state->pos = sizeof(state->batch);
	}
	len = ret;
	for (;;) {
		batch_len = sizeof(state->batch) - state->pos;
		if (batch_len > len)
			batch_len = len;
		if (batch_len) {
			copy_and_zero(out, state->batch + state->pos, batch_len);
			state->pos += batch_len;
			out += batch_len;
			len -= batch_len;
		}
		if (!len)
			break;
		/* whole blocks straight into the buffer, then a new batch and key */
		nblocks = len / CHACHA_BLOCK;
		if (nblocks) {
			chacha20_blocks(out, state->key, &counter, nblocks);
			out += nblocks * CHACHA_BLOCK;
			len -= nblocks * CHACHA_BLOCK;
		}
		chacha20_blocks(state->batch_key, state->key, &counter,
				sizeof(state->batch_key) / CHACHA_BLOCK);
		state->pos = 0;
	}
	barrier();
	/* a zeroed state (fork, MAP_DROPPABLE) or a reseed meanwhile: start over once */
	if (__builtin_expect(READ_ONCE(state->generation) != rng->generation, 0)) {
		if (retried) {
			WRITE_ONCE(state->in_use, 0);
			goto fallback;
		}
		retried = 1;
		out = buffer;
		goto retry;
	}
	WRITE_ONCE(state->in_use, 0);
	return (long)ret;

fallback:
	return getrandom_syscall(buffer, orig_len, flags);
}

/*
 * The common call, in few registers: a request the batch holds, from a
 * state that is current, not in use and within a page, with known flags,
 * once the crng is ready.  What the whole function would do then, it does
 * (copy and zero, advance, check the generation again); anything else
 * goes to getrandom_slow.
 */
long __vdso_getrandom(void *buffer, size_t len, unsigned int flags, void *opaque_state,
		      size_t opaque_len)
{
	const volatile struct vdso_rng_data *rng = &vvar_page.rng;
	struct vgetrandom_state *state = opaque_state;

	if (__builtin_expect(
		    opaque_len == sizeof(*state) &&
			    ((uintptr_t)state & (VPAGE_SIZE - 1)) <= VPAGE_SIZE - sizeof(*state) &&
			    !(flags & ~(unsigned)(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE)) &&
			    rng->is_ready && len && state->pos <= sizeof(state->batch) &&
			    len <= sizeof(state->batch) - state->pos && !READ_ONCE(state->in_use) &&
			    state->generation == rng->generation,
		    1)) {
		WRITE_ONCE(state->in_use, 1);
		copy_and_zero(buffer, state->batch + state->pos, len);
		state->pos += len;
		barrier();
		if (__builtin_expect(READ_ONCE(state->generation) != rng->generation, 0))
			return getrandom_slow(buffer, len, flags, opaque_state, opaque_len, 1);
		WRITE_ONCE(state->in_use, 0);
		return (long)len;
	}
	return getrandom_slow(buffer, len, flags, opaque_state, opaque_len, 0);
}
