/*
 * The big kernel lock (kernel_lock.h says why).  A test-and-set lock with
 * an owner, not a ticket lock: the idle loop waits for it with interrupts
 * on, and an interrupt on that CPU may then wait for it too; behind a
 * ticket its own CPU holds, it would wait forever.
 *
 * Fairness is a hand-off instead: a CPU that had the lock last does not
 * take it again while another CPU spins for it, until one of them has had
 * it or HANDOFF_NS have passed.  Without that, a CPU that gives the lock
 * up and takes it back at once (a sched_yield loop: a few dozen
 * instructions in ring 3 between two holds) wins it nearly every time,
 * and under QEMU's deterministic clock, where vCPUs run one after
 * another, always: a task pinned to a CPU that waits for the lock never
 * ran (tests/linux/lx_starve.c).  Why a bound: the waiting CPU may itself
 * not be running (a vCPU its host has descheduled: the lock-holder
 * preemption of ticket locks in virtual machines), and the deferring CPU
 * waits with interrupts off, missing its ticks; an unbounded hand-off
 * would make it wait for the host.  Long holders hand the lock on at
 * their preemption points (cond_resched_kernel_lock).
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/kernel_lock.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/tlb.h"
#include "kernel/arch/tsc.h"
#include "kernel/arch/traps.h"
#include "kernel/lib/panic.h"
#include "kernel/lib/printk.h"
#include "rng/lockdep.h"

#define NO_OWNER 0xffffffffu

static uint32_t kernel_flag = NO_OWNER; /* the owning CPU's number */
static uint32_t waiters; /* spins for it, on every CPU (a CPU may spin inside a spin) */
static uint32_t last_owner = NO_OWNER; /* written by the owner: who had it last */
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
	/*
	 * Nonzero while this CPU spins for the lock or has given it up for a
	 * wait (release_kernel_lock): out of ring 3 and touching no user
	 * memory until it takes the lock, which flushes its TLB first
	 * (tlb.h).  A count, as an interrupt may spin inside a spin.
	 */
	uint32_t parked;
	uint32_t spinning;   /* this CPU's spins counted in waiters; only it writes */
	uint64_t held_since; /* the TSC at this CPU's acquisition, 0 when not timed */
} __attribute__((aligned(64))) stats[NR_CPUS];

bool kernel_lock_timing;

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

#ifdef RNG_LOCKDEP
void kernel_lock_assert_held(const char *what)
{
	if (!kernel_locked())
		panic("lockdep: %s without the big kernel lock (CPU %u; held by %d)", what,
		      smp_processor_id(), (int)__atomic_load_n(&kernel_flag, __ATOMIC_RELAXED));
}
#endif

static void relax(bool irqs_on)
{
	if (irqs_on)
		irq_enable();
	cpu_relax();
	if (irqs_on)
		irq_disable();
}

/* Whether a CPU other than cpu spins for the lock now. */
static bool others_wait(uint32_t cpu)
{
	return __atomic_load_n(&waiters, __ATOMIC_RELAXED) >
	       __atomic_load_n(&stats[cpu].spinning, __ATOMIC_RELAXED);
}

#define HANDOFF_NS 1000000ULL /* a millisecond: a tick */

/* The hand-off (above): the last owner waits until a waiting CPU has had the lock. */
static void defer_to_waiters(uint32_t cpu, bool irqs_on)
{
	uint64_t start = rdtsc(), bound = tsc_hz() / (1000000000ULL / HANDOFF_NS);

	while (others_wait(cpu) && __atomic_load_n(&last_owner, __ATOMIC_RELAXED) == cpu &&
	       rdtsc() - start < bound)
		relax(irqs_on);
}

/* Spins until this CPU holds the lock; irqs_on: with interrupts taken between tries. */
static void spin_for_lock(uint32_t cpu, bool irqs_on)
{
	bool spun = false;

	lockdep_acquire();
	__atomic_add_fetch(&stats[cpu].parked, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&waiters, __ATOMIC_RELAXED) &&
	    __atomic_load_n(&last_owner, __ATOMIC_RELAXED) == cpu)
		defer_to_waiters(cpu, irqs_on);
	while (!try_take(cpu)) {
		if (!spun) {
			__atomic_add_fetch(&stats[cpu].spinning, 1, __ATOMIC_RELAXED);
			__atomic_add_fetch(&waiters, 1, __ATOMIC_RELAXED);
		}
		spun = true;
		while (__atomic_load_n(&kernel_flag, __ATOMIC_RELAXED) != NO_OWNER)
			relax(irqs_on);
	}
	__atomic_store_n(&last_owner, cpu, __ATOMIC_RELAXED);
	if (spun) {
		__atomic_sub_fetch(&waiters, 1, __ATOMIC_RELAXED);
		__atomic_sub_fetch(&stats[cpu].spinning, 1, __ATOMIC_RELAXED);
	}
	__atomic_sub_fetch(&stats[cpu].parked, 1, __ATOMIC_SEQ_CST);
	flush_tlb_pending(); /* what a shootdown asked while this CPU was out */
	stats[cpu].held_since = kernel_lock_timing ? rdtsc() : 0;
	stats[cpu].s.acquired++;
	stats[cpu].s.contended += spun;
}

void lock_kernel(void)
{
	spin_for_lock(smp_processor_id(), false);
}

void lock_kernel_idle(void)
{
	spin_for_lock(smp_processor_id(), true);
}

void unlock_kernel(void)
{
	uint32_t cpu = smp_processor_id();

	if (stats[cpu].held_since) {
		__atomic_add_fetch(&stats[cpu].s.held_cycles, rdtsc() - stats[cpu].held_since,
				   __ATOMIC_RELAXED);
		stats[cpu].held_since = 0;
	}
	lockdep_release();
	__atomic_store_n(&kernel_flag, NO_OWNER, __ATOMIC_RELEASE);
}

/*
 * A long system call's preemption point (cond_resched): when another CPU
 * waits for the lock, it gets it before this one takes it back, so a copy
 * of 32 MiB does not keep every other CPU out of the kernel (Linux 2.2's
 * release_kernel_lock around schedule(), here without the switch).
 */
void cond_resched_kernel_lock(void)
{
	if (!__atomic_load_n(&waiters, __ATOMIC_RELAXED) || !kernel_locked())
		return;
	unlock_kernel();
	lock_kernel(); /* after a waiting CPU: the hand-off in spin_for_lock */
}

bool kernel_lock_parked(unsigned int cpu)
{
	return cpu < NR_CPUS && __atomic_load_n(&stats[cpu].parked, __ATOMIC_SEQ_CST);
}

/*
 * SEQ_CST on both sides, as on the shootdown's (ask, then look at parked):
 * either the asker sees this CPU unparked and sends the IPI, or this CPU's
 * tlb_flush_asked() after unparking sees the request.
 */
void kernel_lock_park(void)
{
	__atomic_add_fetch(&stats[smp_processor_id()].parked, 1, __ATOMIC_SEQ_CST);
}

void kernel_lock_unpark(void)
{
	__atomic_sub_fetch(&stats[smp_processor_id()].parked, 1, __ATOMIC_SEQ_CST);
}

/* Parked until reacquired: the caller's wait touches no user memory (kernel_lock.h). */
bool release_kernel_lock(void)
{
	if (!kernel_locked())
		return false;
	__atomic_add_fetch(&stats[smp_processor_id()].parked, 1, __ATOMIC_SEQ_CST);
	unlock_kernel();
	return true;
}

void reacquire_kernel_lock(bool held)
{
	if (!held)
		return;
	lock_kernel();
	__atomic_sub_fetch(&stats[smp_processor_id()].parked, 1, __ATOMIC_SEQ_CST);
}

void kernel_lock_stat_read(unsigned int cpu, struct kernel_lock_stat *out)
{
	*out = cpu < NR_CPUS ? stats[cpu].s : (struct kernel_lock_stat){0, 0, 0};
}
