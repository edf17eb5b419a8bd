#ifndef KERNEL_ARCH_TRAPS_H
#define KERNEL_ARCH_TRAPS_H

#include <stdbool.h>
#include <stdint.h>

/* Pushed by isr.asm; field order is the reverse of the push order. */
struct trap_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8, rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error;
	uint64_t rip, cs, rflags, rsp, ss;
};

typedef void (*irq_handler_t)(struct trap_frame *f);

void trap_dispatch(struct trap_frame *f);
void irq_register(int vector, irq_handler_t h);
/* A handler that touches only its own CPU's state: it runs without the kernel lock. */
void irq_register_percpu(int vector, irq_handler_t h);
/* Called for a fault raised in user mode (processes install it). */
extern void (*user_fault_hook)(struct trap_frame *f);
/*
 * A page fault from ring 3, tried first without the big kernel lock
 * (traps.c): true if resolved; false sends it to user_fault_hook under it.
 */
extern bool (*user_fault_unlocked_hook)(struct trap_frame *f);
/* The page faults from ring 3 that CPUs 0 to ncpus - 1 resolved without the big kernel lock. */
uint64_t user_faults_unlocked(unsigned int ncpus);
extern uint64_t bad_irets; /* faults on the iretq to user mode (fixup_bad_iret) */
/* Called for a kernel fault on a user address inside uaccess; 0 = resolved, retry. */
extern int (*uaccess_fault_hook)(uint64_t addr, bool write);
/* Called before an interrupt or a user fault returns to ring 3 (preemption, signals). */
extern void (*return_to_user_hook)(struct trap_frame *f);
/* Whether return_to_user_hook has anything to do for f (a signal, a reschedule). */
extern bool (*return_to_user_pending_hook)(const struct trap_frame *f);

/* A fixup entry: a fault at `insn` resumes at `fixup` (see arch/probe.asm). */
struct ex_entry {
	uint64_t insn;
	uint64_t fixup;
};
uint64_t search_exception_table(uint64_t rip);
/*
 * Linux's pagefault_disable(): until pagefault_enable(), a fault in a
 * uaccess routine on this CPU is not handled (no page is populated, no
 * copy-on-write broken: that needs the kernel lock) and takes the
 * routine's fixup at once.  For code that runs without the kernel lock,
 * with interrupts off (copy_to_user_nofault).
 */
void pagefault_disable(void);
void pagefault_enable(void);
extern uint64_t fixups_taken;

/* Probes that turn a fault into -EFAULT instead of a crash. */
int probe_read_u64(const void *addr, uint64_t *out);
int probe_write_u64(void *addr, uint64_t val);

void dump_frame(const struct trap_frame *f);
void backtrace_from(uint64_t rbp, uint64_t rip);
/* Installs lib/'s panic and printk hooks (interrupt masking, backtrace, exit). */
void traps_install_lib_hooks(void);

#endif
