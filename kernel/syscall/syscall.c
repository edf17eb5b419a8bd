/*
 * System-call entry: MSR setup and the dispatch table.  The assembly entry
 * (arch/switch.asm) saves the user registers as a struct trap_frame at the
 * top of the task's kernel stack; the return value goes back in rax.
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/gdt.h"
#include "kernel/lib/errno.h"
#include "kernel/task/sched.h"
#include "kernel/syscall/syscall.h"

void syscall_entry(void);

static const struct {
	unsigned nr;
	syscall_fn fn;
} table[] = {
	{__NR_read, sys_read},
	{__NR_write, sys_write},
	{__NR_open, sys_open},
	{__NR_close, sys_close},
	{__NR_lseek, sys_lseek},
	{__NR_mmap, sys_mmap},
	{__NR_munmap, sys_munmap},
	{__NR_brk, sys_brk},
	{__NR_sched_yield, sys_sched_yield},
	{__NR_nanosleep, sys_nanosleep},
	{__NR_getpid, sys_getpid},
	{__NR_fork, sys_fork},
	{__NR_execve, sys_execve},
	{__NR_aslrbench_lab, sys_aslrbench_lab},
	{__NR_exit, sys_exit},
	{__NR_wait4, sys_wait4},
	{__NR_getuid, sys_getuid},
	{__NR_getgid, sys_getgid},
	{__NR_setuid, sys_setuid},
	{__NR_geteuid, sys_geteuid},
	{__NR_getegid, sys_getegid},
	{__NR_getppid, sys_getppid},
	{__NR_setresuid, sys_setresuid},
	{__NR_getresuid, sys_getresuid},
	{__NR_setresgid, sys_setresgid},
	{__NR_getresgid, sys_getresgid},
	{__NR_prctl, sys_prctl},
	{__NR_reboot, sys_reboot},
	{__NR_clock_gettime, sys_clock_gettime},
	{__NR_exit_group, sys_exit},
	{__NR_getrandom, sys_getrandom},
	{__NR_spawn, sys_spawn},
	{__NR_aslrbench_job, sys_aslrbench_job},
	{__NR_aslrbench_test, sys_aslrbench_test},
	{__NR_getdents_pids, sys_getdents_pids},
	{__NR_bench_submit, sys_bench_submit},
	{__NR_fuzz_note, sys_fuzz_note},
};

#define X86_EFLAGS_CF	0x000001
#define X86_EFLAGS_PF	0x000004
#define X86_EFLAGS_AF	0x000010
#define X86_EFLAGS_ZF	0x000040
#define X86_EFLAGS_SF	0x000080
#define X86_EFLAGS_TF	0x000100
#define X86_EFLAGS_IF	0x000200
#define X86_EFLAGS_DF	0x000400
#define X86_EFLAGS_OF	0x000800
#define X86_EFLAGS_IOPL 0x003000
#define X86_EFLAGS_NT	0x004000
#define X86_EFLAGS_RF	0x010000
#define X86_EFLAGS_AC	0x040000
#define X86_EFLAGS_ID	0x200000
#define SYSCALL_MASK                                                                               \
	(X86_EFLAGS_CF | X86_EFLAGS_PF | X86_EFLAGS_AF | X86_EFLAGS_ZF | X86_EFLAGS_SF |           \
	 X86_EFLAGS_TF | X86_EFLAGS_IF | X86_EFLAGS_DF | X86_EFLAGS_OF | X86_EFLAGS_IOPL |         \
	 X86_EFLAGS_NT | X86_EFLAGS_RF | X86_EFLAGS_AC | X86_EFLAGS_ID)

void syscall_init(void)
{
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
	/* sysret loads CS = STAR[63:48] + 16, SS = + 8; syscall CS = STAR[47:32]. */
	wrmsr(MSR_STAR, ((uint64_t)(USER_DS - 3 - 8) << 48) | ((uint64_t)KERNEL_CS << 32));
	wrmsr(MSR_LSTAR, (uint64_t)syscall_entry);
	/*
	 * Flags cleared on entry: Linux 6.6's syscall_init (arch/x86/kernel/cpu/
	 * common.c) clears "as much as possible".  NT above all: left set, the
	 * kernel's next iretq raises #GP, and a context switch carries it into
	 * another task.
	 */
	wrmsr(MSR_SFMASK, SYSCALL_MASK);
}

void syscall_dispatch(struct trap_frame *f)
{
	struct syscall_args a = {f->rdi, f->rsi, f->rdx, f->r10, f->r8, f->r9};
	/*
	 * The number is an int, as in Linux 6.6 (entry_64.S: movslq %eax, %rsi;
	 * do_syscall_x64: unsigned int unr = nr): the upper 32 bits of rax are
	 * ignored.
	 */
	unsigned nr = (uint32_t)f->rax;
	long ret = -ENOSYS;

	current->regs = f;
	for (unsigned i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if (table[i].nr == nr) {
			ret = table[i].fn(&a);
			break;
		}
	}
	f->rax = (uint64_t)ret;
	preempt_from_user();
}
