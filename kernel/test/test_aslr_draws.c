/*
 * The draws of one spawn (fork's canary, then the exec), against an
 * independent recomputation.
 *
 * rng=md4-2.6.30 keeps its hash between calls, so every value depends on
 * every call before it: the layout of one spawn is a function of the order
 * of the draws.  The test fixes pid and jiffies, makes the cycle counter
 * count, snapshots the variant's secret and hash, spawns t_nop (a static
 * PIE: ET_DYN without PT_INTERP), and recomputes every region from
 * get_random_int_md4() (the pure 2.6.30 core) with the rules written out
 * below from the Linux sources, not from kernel/aslr/:
 *
 *   2.6.29 (64-bit task): dup_task_struct's canary (linux/kernel/fork.c:242),
 *     mmap_rnd, randomize_stack_top, arch_align_stack in setup_arg_pages
 *     (the strings follow the page it rounds to: bprm->p), [the exe: no
 *     draw; load_bias 0 (binfmt_elf.c:839-847), the first PT_LOAD alone
 *     top-down below mmap_base], vdso_addr(bprm->p),
 *     arch_align_stack(bprm->p) in create_elf_tables, [AT_RANDOM:
 *     get_random_bytes, the pool], arch_randomize_brk.  ia32: no vdso_addr.
 *   6.12: get_random_canary() (linux/kernel/fork.c:1170), arch_rnd(28),
 *     arch_rnd(8) (the compat base), randomize_stack_top, arch_align_stack,
 *     [the exe: a loader, load_bias 0, total_size top-down below mmap_base
 *     (binfmt_elf.c:1136-1162); the vDSO: no draw], arch_align_stack(bprm->p),
 *     [AT_RANDOM: the CRNG], the brk moved to ELF_ET_DYN_BASE and
 *     randomize_page(brk, 1 GiB) (binfmt_elf.c:1308-1325).  md4-2.6.30 has
 *     one 32-bit output: a u64 request is one call zero-extended, a u16 one
 *     its low 16 bits (kernel/char/random.h); get_random_u32_below(8192)
 *     is (8192 * u16) >> 16 (include/linux/random.h:81-84).
 * bprm->p is the [stack] end less what copy_strings wrote there: the 8-byte
 * slot, "/bin/t_nop" and "t_nop" (no environment).
 *
 * Swapping any two draws, adding one or dropping one makes a region (or
 * the canary, drawn first) differ, and the test fails; so does placing a
 * static PIE at ELF_ET_DYN_BASE + arch_mmap_rnd() under 6.x.
 */
#include "kernel/measure/policy.h"
#include "kernel/arch/timer.h"
#include "kernel/lib/string.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/char/random.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/task/process.h"
#include "kernel/task/task.h"
#include "kernel/test/ktest.h"
#include "rng/chacha20_batched.h"
#include "rng/variants.h"

#define P     4096ULL
#define PMD   (2ULL << 20)
#define PID   4242
#define CSTEP 7919
/* bprm_mm_init's slot + the filename + argv[0] of spawn_prog("t_nop") */
#define ARG_BYTES (8 + sizeof("/bin/t_nop") + sizeof("t_nop"))

static uint64_t fixed_jiffies, cycle_count;

static uint32_t fx_pid(void)
{
	return PID;
}

static uint64_t fx_jiffies(void)
{
	return fixed_jiffies;
}

static uint64_t fx_cycles(void)
{
	return cycle_count += CSTEP;
}

static struct rng_platform fx = {
	.current_pid = fx_pid, .jiffies = fx_jiffies, .get_cycles = fx_cycles, .hz = 250};

/* the recomputation's own copy of the generator */
static uint32_t hash[4], secret[12];
static uint64_t re_cycles;

static uint32_t draw(void)
{
	return get_random_int_md4(hash, secret, PID, fixed_jiffies, re_cycles += CSTEP);
}

static uint64_t pa(uint64_t v)
{
	return (v + P - 1) & ~(P - 1);
}

struct expect {
	uint64_t mmap, stack, arg, argp, exe, vdso, sp, brk, canary;
	uint8_t at_random[16];
};

/* first: the first PT_LOAD's pages (elf_map's size); span: the image's, page aligned */
static void recompute_2629(int ia32, uint64_t first, uint64_t span, struct expect *e)
{
	uint64_t task = ia32 ? 0xffffe000ULL : 0x7ffffffff000ULL;
	uint32_t mask = ia32 ? 0x7ff : 0x3fffff, v;

	e->canary = draw();
	e->mmap = pa(pa(task - (128ULL << 20)) -
		     ((uint64_t)(draw() % (1u << (ia32 ? 8 : 28))) << 12));
	v = draw() & mask;
	v <<= 12; /* unsigned int: the top bits fall off */
	e->stack = pa(task) - v;
	e->arg = pa((e->stack - draw() % 8192) & ~15ULL);
	e->argp = e->arg - ARG_BYTES;
	e->exe = e->mmap - first;
	e->vdso = 0;
	if (!ia32) { /* from the unaligned bprm->p; get_unmapped_area aligns the hint */
		uint64_t end = (e->argp + PMD - 1) & ~(PMD - 1);

		end = (end >= task ? task : end) - 2 * P; /* TASK_SIZE_MAX */

		e->vdso = e->argp + ((uint64_t)(draw() & 511) << 12);
		if (e->vdso >= end)
			e->vdso = end;
		e->vdso = pa(e->vdso);
	}
	e->sp = (e->argp - draw() % 8192) & ~15ULL;
	e->brk = pa(draw() % (32ULL << 20) + e->exe + span);
}

static uint64_t md4_u64(void) /* get_random_long() from a 32-bit-only variant */
{
	return draw();
}

static uint16_t md4_u16(void) /* get_random_u16() from a 32-bit-only variant */
{
	return (uint16_t)draw();
}

/* where recompute_6x takes get_random_long(), get_random_u16() and AT_RANDOM from */
static uint64_t (*u64_of)(void) = md4_u64;
static uint16_t (*u16_of)(void) = md4_u16;
static void (*at_random_of)(uint8_t *out, size_t len); /* NULL: not compared */

static uint32_t below_8192(void) /* get_random_u32_below(8192): the u16 path, a power of two */
{
	return (8192u * u16_of()) >> 16;
}

static void recompute_6x(int ia32, uint64_t span, struct expect *e)
{
	uint64_t task = ia32 ? 0xffffe000ULL : 0x7ffffffff000ULL;
	uint64_t gap64 = (8ULL << 20) + (0x3fffffULL << 12) + 256 * P;
	uint64_t dyn = ia32 ? 0x400000ULL : 0x7ffffffff000ULL / 3 * 2; /* ELF_ET_DYN_BASE */
	uint64_t m64, m32;

	e->canary = u64_of() & 0xffffffffffffff00ULL;
	m64 = pa(pa(0x7ffffffff000ULL - gap64) - ((u64_of() & ((1u << 28) - 1)) << 12));
	m32 = pa(pa(0xffffe000ULL - (128ULL << 20)) - ((u64_of() & 255) << 12));
	e->mmap = ia32 ? m32 : m64;
	e->stack = pa(task) - ((u64_of() & (ia32 ? 0x7ff : 0x3fffff)) << 12);
	e->arg = pa((e->stack - below_8192()) & ~15ULL);
	e->argp = e->arg - ARG_BYTES;
	e->exe = e->mmap - span; /* a loader: mmap(total_size), top-down */
	e->vdso = 0;
	e->sp = (e->argp - below_8192()) & ~15ULL;
	if (at_random_of) /* create_elf_tables' get_random_bytes(16), before the brk */
		at_random_of(e->at_random, sizeof(e->at_random));
	e->brk = pa(dyn) + ((u64_of() % (ia32 ? 8192u : 262144u)) << 12);
}

static const char *compare(const struct mm_struct *mm, uint64_t canary, const struct expect *e)
{
	if (mm->mmap_base != e->mmap)
		return "mmap_base";
	if (mm->stack_top != e->stack)
		return "stack_top";
	if (mm->stack_arg_top != e->arg)
		return "stack_arg_top";
	if (mm->arg_start != e->argp)
		return "arg_start";
	if (mm->exe_base != e->exe)
		return "exe_base";
	if (mm->vdso_base != e->vdso)
		return "vdso_base";
	if (mm->stack_align_sp != e->sp)
		return "stack_align_sp";
	if (mm->start_brk != e->brk)
		return "start_brk";
	if (canary != e->canary)
		return "canary";
	return 0;
}

static enum ktest_result aslr_draw_order(struct ktest_ctx *t)
{
	struct policy want, saved;
	enum ktest_result res = KTEST_PASS;
	static const uint8_t zero[16];

	policy_current(&want);
	want.rng = &rng_variant_md4_2630;
	want.randomize_va_space = 2;
	if (policy_select(&want, &saved))
		return ktest_skip(t, "md4-2.6.30 unavailable");
	fixed_jiffies = jiffies;
	fx.hz = timer_hz();
	rng_set_platform(&fx);
	for (int k = 0; k < 2 * ASLR_NR_RULES && res == KTEST_PASS; k++) {
		char *argv[] = {"t_nop"};
		struct expect e;
		struct task_struct *c;
		const char *bad;
		uint64_t span, first;
		int status;
		long pid;

		want.aslr_rules = k >> 1;
		want.aslr_ia32 = k & 1;
		policy_select(&want, 0);
		(void)get_random_int(); /* runs a re-key that fell due before the snapshot */
		memcpy(secret, md4_2630_keydata()->secret, sizeof(secret));
		md4_2630_get_hash(hash);
		re_cycles = cycle_count;
		pid = spawn_prog("t_nop", 1, argv);
		c = pid > 0 ? find_task_by_pid((int)pid) : 0;
		if (!c || !c->mm) {
			res = ktest_fail(t, "spawn: %ld", pid);
			break;
		}
		span = 0;      /* the exe's size, page aligned: its highest segment's end */
		first = ~0ULL; /* the first PT_LOAD's pages: the lowest exe VMA */
		for (int i = 0; i < c->mm->nvmas; i++)
			if (c->mm->vmas[i].kind == VMA_EXE) {
				if (c->mm->vmas[i].end - c->mm->exe_base > span)
					span = c->mm->vmas[i].end - c->mm->exe_base;
				if (c->mm->vmas[i].start == c->mm->exe_base)
					first = c->mm->vmas[i].end - c->mm->vmas[i].start;
			}
		if (want.aslr_rules == ASLR_RULES_2629)
			recompute_2629(want.aslr_ia32, first, span, &e);
		else
			recompute_6x(want.aslr_ia32, span, &e);
		bad = compare(c->mm, c->stack_canary, &e);
		if (bad)
			res = ktest_fail(t, "%s/%s: %s differs from the recomputed draw sequence",
					 aslr_rules_name(want.aslr_rules),
					 want.aslr_ia32 ? "ia32" : "x86_64", bad);
		else if (!memcmp(c->mm->at_random, zero, sizeof(zero)))
			res = ktest_fail(t, "AT_RANDOM bytes were not drawn");
		do_wait((int)pid, 0, &status, 0, 0);
	}
	rng_set_platform(random_platform());
	policy_restore(&saved);
	return res;
}
KTEST(aslr_draw_order);

/*
 * The same spawn under 6.x with rng=chacha20-batched, every value exact:
 * the canary, the mmap bases, the stack top and the brk from the u64 batch,
 * both arch_align_stack draws from the u16 batch, AT_RANDOM from
 * get_random_bytes(16).  The model below is Linux 6.12 drivers/char/random.c
 * written out again on the ChaCha20 block function (RFC 8439, checked by
 * tests/rng): crng_fast_key_erasure (:308-324), crng_make_state (:331-387:
 * a stale per-CPU crng takes its key from the base key by fast key
 * erasure first), _get_random_bytes (:389-419: 32 bytes from the erasure
 * block, then blocks of the detached state), DEFINE_BATCHED_ENTROPY
 * (:490-544: 96 bytes a batch, 12 u64 or 48 u16, read from index 0).  The
 * CRNG starts from a known base key with every batch stale
 * (crng_replay_init), jiffies held so that no reseed falls due.
 */
static uint8_t m_base[32], m_cpu[32];
static int m_cpu_stale;
static uint8_t m_b64[96], m_b16[96];
static unsigned m_p64, m_p16;

static void m_erasure(uint8_t key[32], uint32_t st[16], uint8_t *out, size_t n)
{
	uint8_t blk[64];

	chacha_init_consts(st);
	memcpy(&st[4], key, 32);
	st[12] = st[13] = st[14] = st[15] = 0;
	chacha20_block(st, blk);
	memcpy(key, blk, 32);
	memcpy(out, blk + 32, n);
}

static void m_get_bytes(uint8_t *out, size_t len)
{
	uint32_t st[16];
	uint8_t blk[64];
	size_t first = len < 32 ? len : 32;

	if (m_cpu_stale) {
		m_erasure(m_base, st, m_cpu, 32);
		m_cpu_stale = 0;
	}
	m_erasure(m_cpu, st, out, first);
	for (out += first, len -= first; len; len -= len < 64 ? len : 64, out += 64) {
		chacha20_block(st, blk);
		memcpy(out, blk, len < 64 ? len : 64);
	}
}

static uint64_t m_u64(void)
{
	uint64_t v = 0;

	if (m_p64 >= 12) {
		m_get_bytes(m_b64, sizeof(m_b64));
		m_p64 = 0;
	}
	for (int i = 7; i >= 0; i--)
		v = v << 8 | m_b64[8 * m_p64 + i];
	m_p64++;
	return v;
}

static uint16_t m_u16(void)
{
	uint16_t v;

	if (m_p16 >= 48) {
		m_get_bytes(m_b16, sizeof(m_b16));
		m_p16 = 0;
	}
	v = (uint16_t)(m_b16[2 * m_p16] | m_b16[2 * m_p16 + 1] << 8);
	m_p16++;
	return v;
}

static enum ktest_result aslr_draws_crng_6x(struct ktest_ctx *t)
{
	static const uint8_t key[32] = {0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe,
					0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
					0xf0, 0xe1, 0xd2, 0xc3, 0xb4, 0xa5, 0x96, 0x87,
					0x78, 0x69, 0x5a, 0x4b, 0x3c, 0x2d, 0x1e, 0x0f};
	char *argv[] = {"t_nop"};
	struct policy want, saved;
	enum ktest_result res = KTEST_PASS;
	struct task_struct *c;
	struct expect e;
	const char *bad;
	uint64_t span = 0;
	int status;
	long pid;

	policy_current(&want);
	want.rng = &rng_variant_chacha20_batched;
	want.aslr_rules = ASLR_RULES_6X;
	want.aslr_ia32 = 0;
	want.randomize_va_space = 2;
	if (policy_select(&want, &saved))
		return ktest_skip(t, "chacha20-batched unavailable");
	fixed_jiffies = jiffies;
	fx.hz = timer_hz();
	rng_set_platform(&fx);
	crng_replay_init(key);
	memcpy(m_base, key, sizeof(key));
	m_cpu_stale = 1;
	m_p64 = m_p16 = ~0U;
	pid = spawn_prog("t_nop", 1, argv);
	c = pid > 0 ? find_task_by_pid((int)pid) : 0;
	if (!c || !c->mm) {
		res = ktest_fail(t, "spawn: %ld", pid);
		goto out;
	}
	for (int i = 0; i < c->mm->nvmas; i++)
		if (c->mm->vmas[i].kind == VMA_EXE && c->mm->vmas[i].end - c->mm->exe_base > span)
			span = c->mm->vmas[i].end - c->mm->exe_base;
	u64_of = m_u64;
	u16_of = m_u16;
	at_random_of = m_get_bytes;
	recompute_6x(0, span, &e);
	u64_of = md4_u64;
	u16_of = md4_u16;
	at_random_of = 0;
	bad = compare(c->mm, c->stack_canary, &e);
	if (bad)
		res = ktest_fail(t, "6.x/chacha20-batched: %s differs from Linux 6.12's batches",
				 bad);
	else if (memcmp(c->mm->at_random, e.at_random, sizeof(e.at_random)))
		res = ktest_fail(t, "6.x/chacha20-batched: AT_RANDOM differs");
	do_wait((int)pid, 0, &status, 0, 0);
out:
	rng_set_platform(random_platform());
	policy_restore(&saved);
	return res;
}
KTEST(aslr_draws_crng_6x);
