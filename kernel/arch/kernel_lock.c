/*
 * The big kernel lock (kernel_lock.h says why).  A test-and-set lock with
 * an owner, not a ticket lock: the idle loop and interrupt handlers must be
 * able to try it without taking a place in a queue they might then never
 * leave (an interrupt that spins for a ticket behind the one its own CPU
 * holds would wait forever).
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/kernel_lock.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/traps.h"
#include "kernel/lib/printk.h"
#include "rng/lockdep.h"

#define NO_OWNER 0xffffffffu

static uint32_t kernel_flag = NO_OWNER; /* the owning CPU's number */
#ifdef RNG_LOCKDEP
static struct rng_lock_class kernel_flag_class; /* a lock like rng/'s, to the order checker */

static void lockdep_report(unsigned int held, unsigned int taking)
{
	kprintf("lockdep: possible deadlock: lock class %u taken while holding class %u, "
		"after the opposite order (class %u is the big kernel lock)\n",
		taking, held, kernel_flag_class.id);
	backtrace_from((uint64_t)__builtin_frame_address(0), (uint64_t)lockdep_report);
}
#endif

static void lockdep_acquire(void)
{
#ifdef RNG_LOCKDEP
	rng_lockdep_acquire(&kernel_flag_class);
#endif
}

static void lockdep_release(void)
{
#ifdef RNG_LOCKDEP
	rng_lockdep_release(&kernel_flag_class);
#endif
}

void kernel_lockdep_init(void)
{
#ifdef RNG_LOCKDEP
	rng_lockdep_report = lockdep_report;
	kprintf("lockdep: lock orders checked (a LOCKDEP=1 build)\n");
#endif
}

static struct {
	struct kernel_lock_stat s;
} __attribute__((aligned(64))) stats[NR_CPUS];

static bool try_take(uint32_t cpu)
{
	uint32_t expect = NO_OWNER;

	return __atomic_compare_exchange_n(&kernel_flag, &expect, cpu, false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

bool kernel_locked(void)
{
	return __atomic_load_n(&kernel_flag, __ATOMIC_RELAXED) == smp_processor_id();
}

bool trylock_kernel(void)
{
	uint32_t cpu = smp_processor_id();

	if (!try_take(cpu))
		return false;
	lockdep_acquire();
	stats[cpu].s.acquired++;
	return true;
}

void lock_kernel(void)
{
	uint32_t cpu = smp_processor_id();
	bool spun = false;

	lockdep_acquire();
	while (!try_take(cpu)) {
		spun = true;
		while (__atomic_load_n(&kernel_flag, __ATOMIC_RELAXED) != NO_OWNER)
			cpu_relax();
	}
	stats[cpu].s.acquired++;
	stats[cpu].s.contended += spun;
}

void unlock_kernel(void)
{
	lockdep_release();
	__atomic_store_n(&kernel_flag, NO_OWNER, __ATOMIC_RELEASE);
}

bool release_kernel_lock(void)
{
	if (!kernel_locked())
		return false;
	unlock_kernel();
	return true;
}

void reacquire_kernel_lock(bool held)
{
	if (held)
		lock_kernel();
}

void kernel_lock_stat_read(unsigned int cpu, struct kernel_lock_stat *out)
{
	*out = cpu < NR_CPUS ? stats[cpu].s : (struct kernel_lock_stat){0, 0};
}
