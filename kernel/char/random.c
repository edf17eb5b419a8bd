/*
 * get_random_int() and the environment of the 2009 generators.
 *
 * Seeding: a deterministic run (seed= on the command line) uses that seed
 * alone, so two runs draw identical values.  Otherwise the seed is what the
 * firmware's EFI_RNG_PROTOCOL gave the loader, then RDSEED, then the TSC at
 * boot, concatenated; the variants condition it themselves.
 */
#include "kernel/char/random.h"
#include "kernel/arch/cpu.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/fpu.h"
#include "kernel/arch/timer.h"
#include "kernel/arch/xstate.h"
#include "kernel/arch/boot_info.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/string.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/vdso.h"
#include "rng/chacha20_batched.h"
#include "rng/util.h"
#include "rng/variants.h"

static const struct rng_variant *cur;

int random_boot_variant;
struct param_hex random_boot_seed;
param_rng(rng, random_boot_variant, "chacha20-batched", "the RNG the running system uses");
param_hex(seed, random_boot_seed, PARAM_HEX_MAX, "fixed seed, hex: a deterministic run");
static const char *seed_source = "none";
static int ready;

uint32_t (*rng_current_pid_hook)(void);

/*
 * The pid the variants read: the current task's (the boot context is pid
 * 0, as Linux's swapper), or for the one draw of get_random_int_for() the
 * pid it was given.  The variants take no arguments (rng/ keeps Linux's
 * get_random_int() signature), so the pid is held here for that call only,
 * per CPU: a draw without the big kernel lock on one CPU (getrandom, fork's
 * canary) must not read the pid another CPU's get_random_int_for() set.
 */
static struct {
	uint32_t pid;
	bool set;
} draw_pid[NR_CPUS];

static uint32_t plat_pid(void)
{
	unsigned int cpu = smp_processor_id();

	if (draw_pid[cpu].set)
		return draw_pid[cpu].pid;
	return rng_current_pid_hook ? rng_current_pid_hook() : 0;
}

static uint64_t plat_jiffies(void)
{
	return jiffies;
}

/*
 * The cycle counter the variants read.  In a deterministic run (seed= on
 * the command line, QEMU -icount) it counts from random_init: the
 * firmware's time before the kernel (disk reads whose completion QEMU times
 * by the host) varies between runs, the kernel's own instruction count does
 * not, so md4/md5/sha1 draws and everything that depends on them repeat.
 */
static uint64_t cycles_base;

static uint64_t plat_cycles(void)
{
	return rdtsc() - cycles_base;
}

static int rdseed64(uint64_t *v)
{
	unsigned char ok;

	for (int i = 0; i < 10; i++) {
		__asm__ volatile("rdseed %0; setc %1" : "=r"(*v), "=qm"(ok));
		if (ok)
			return 0;
	}
	return -1;
}

static int rdrand64(uint64_t *v)
{
	unsigned char ok;

	for (int i = 0; i < 10; i++) { /* Linux's RDRAND_RETRY_LOOPS */
		__asm__ volatile("rdrand %0; setc %1" : "=r"(*v), "=qm"(ok));
		if (ok)
			return 0;
	}
	return -1;
}

/*
 * x86's arch_get_random_seed_longs() and arch_get_random_longs() (Linux
 * 6.12 arch/x86/include/asm/archrandom.h): one long per call, or none.  A
 * deterministic run gives none, so the 6.x extraction takes the cycle
 * counter, which -icount makes repeatable.
 */
static bool have_rdseed, have_rdrand; /* CPUID's answer, read once in random_init */

static bool cpu_has(unsigned leaf, int reg, unsigned bit)
{
	uint32_t r[4];

	cpuid_count(leaf, 0, r);
	return r[reg] & (1u << bit);
}

static size_t plat_arch_seed_longs(uint64_t *v, size_t max)
{
	if (!max || random_boot_seed.len || !have_rdseed)
		return 0;
	return rdseed64(v) ? 0 : 1;
}

static size_t plat_arch_longs(uint64_t *v, size_t max)
{
	if (!max || random_boot_seed.len || !have_rdrand)
		return 0;
	return rdrand64(v) ? 0 : 1;
}

static unsigned long plat_irq_save(void)
{
	return (unsigned long)irq_save();
}

static void plat_irq_restore(unsigned long flags)
{
	irq_restore(flags);
}

static struct rng_platform plat = {
	.current_pid = plat_pid,
	.jiffies = plat_jiffies,
	.get_cycles = plat_cycles,
	.hz = 250,
	.simd_begin = kernel_fpu_begin,
	.simd_end = kernel_fpu_end,
	/* .simd_xfeatures: what kernel_fpu_begin() saves, set in random_init() */
	.arch_seed_longs = plat_arch_seed_longs,
	.arch_longs = plat_arch_longs,
	.cpu_gs_offset = offsetof(struct percpu, cpu), /* smp_processor_id() */
	.irq_save = plat_irq_save,		       /* the pools' spin_lock_irqsave */
	.irq_restore = plat_irq_restore,
};

static size_t gather_seed(uint8_t *buf, size_t cap)
{
	size_t n = 0;

	if (random_boot_seed.len) {
		memcpy(buf, random_boot_seed.bytes, random_boot_seed.len);
		seed_source = "cmdline";
		return random_boot_seed.len;
	}
	if (boot_info_copy.seed_len) {
		memcpy(buf, boot_info_copy.seed, boot_info_copy.seed_len);
		n = boot_info_copy.seed_len;
		seed_source = "efi_rng";
	}
	if (have_rdseed) {
		for (int i = 0; i < 4 && n + 8 <= cap; i++) {
			uint64_t v;

			if (rdseed64(&v))
				break;
			memcpy(buf + n, &v, 8);
			n += 8;
			if (!boot_info_copy.seed_len)
				seed_source = "rdseed";
		}
	}
	if (n + 8 <= cap) {
		uint64_t t = rdtsc();

		memcpy(buf + n, &t, 8);
		n += 8;
		if (!boot_info_copy.seed_len && !strcmp(seed_source, "none"))
			seed_source = "tsc";
	}
	return n;
}

int random_init(char *err, unsigned long errlen)
{
	uint8_t seed[128];
	size_t n;

	plat.hz = timer_hz();
	plat.initial_jiffies = initial_jiffies;
	if (random_boot_seed.len)
		cycles_base = rdtsc();
	have_rdseed = cpu_has(7, 1, 18);
	have_rdrand = cpu_has(1, 2, 30);
	/* kernel_fpu_begin() saves every component XCR0 enables: AVX2 and AVX-512F run where
	 * enabled */
	plat.simd_xfeatures = fpu_user_cfg.max_features;
	rng_set_platform(&plat);
	crng_generation_hook = vdso_rng_generation_advance;
	n = gather_seed(seed, sizeof(seed));
	rng_seed_all(seed, n);
	memset(seed, 0, sizeof(seed));
	ready = 1;
	vdso_rng_set_ready();
	if (rdrand_stuck()) /* Linux 5.10's warning; RDRAND stays in use */
		kprintf("RDRAND gives funky smelling output, might consider not using it by "
			"booting with \"nordrand\"\n");
	const char *variant = rng_variants[random_boot_variant]->name;

	switch (rng_select(variant)) {
	case 0:
		return 0;
	case -ENODEV:
		ksnprintf(err, errlen, "rng=%s is not available on this CPU", variant);
		return -1;
	default:
		ksnprintf(err, errlen, "unknown rng variant '%s'", variant);
		return -1;
	}
}

const struct rng_platform *random_platform(void)
{
	return &plat;
}

int rng_select(const char *name)
{
	const struct rng_variant *v = rng_find(name);

	if (!v)
		return -EINVAL;
	if (!v->available())
		return -ENODEV;
	cur = v;
	return 0;
}

const struct rng_variant *rng_current(void)
{
	return cur;
}

unsigned int get_random_int(void)
{
	return cur->get_u32();
}

static uint64_t variant_u32(void)
{
	return cur->get_u32();
}

static uint64_t variant_u64(void)
{
	return cur->get_u64 ? cur->get_u64() : cur->get_u32();
}

static uint64_t variant_u16(void)
{
	return cur->get_u16 ? cur->get_u16() : (uint16_t)cur->get_u32();
}

/* One draw of the given width as the task `pid` makes it (pid + jiffies variants). */
static uint64_t draw_for(uint32_t pid, uint64_t (*draw)(void))
{
	unsigned int cpu = smp_processor_id();
	uint64_t v;

	draw_pid[cpu].pid = pid;
	draw_pid[cpu].set = true;
	v = draw();
	draw_pid[cpu].set = false;
	return v;
}

unsigned int get_random_int_for(uint32_t pid)
{
	return (unsigned int)draw_for(pid, variant_u32);
}

uint64_t get_random_long(void)
{
	return variant_u64();
}

uint64_t get_random_long_for(uint32_t pid)
{
	return draw_for(pid, variant_u64);
}

uint16_t get_random_u16_for(uint32_t pid)
{
	return (uint16_t)draw_for(pid, variant_u16);
}

void get_random_bytes(void *buf, size_t len)
{
	rng_variant_chacha20_batched.get_bytes(buf, len);
}

void getrandom_begin(uint32_t state[16])
{
	crng_user_begin(state);
}

void getrandom_block(uint32_t state[16], uint8_t out[64])
{
	chacha20_block(state, out);
	if (state[12] == 0)
		++state[13];
}

void getrandom_end(uint32_t state[16])
{
	rng_memzero_explicit(state, 16 * sizeof(state[0]));
}

void add_input_randomness(unsigned int type, unsigned int code, unsigned int value)
{
	if (ready)
		rng_add_input_randomness(type, code, value, rdtsc());
}

const char *rng_seed_source(void)
{
	return seed_source;
}
