/*
 * lx_signal: a plain Linux C program (static musl and static glibc) that
 * checks signal delivery within a process from ring 3: handlers with
 * siginfo and ucontext, the mask during a handler, SA_RESETHAND,
 * SA_NODEFER, SA_ONSTACK and sigaltstack, sigprocmask and delivery on
 * unblock, sigpending, sigtimedwait, tgkill, SIGSEGV caught and left with
 * siglongjmp (a write to a read-only page, a fetch from a non-executable
 * one, an unmapped address), the FPU state across a handler; with "forge",
 * rt_sigreturn of forged frames (bad rip, cs, flags, fpstate, MXCSR, rsp).
 * Signals between processes are lx_sigproc.c's.  tests/sh/linux-abi.sh runs
 * the same binaries on the host Linux, which proves every expectation; the
 * kernel's linux suite runs them.
 *
 * Usage: lx_signal [forge]; one "ok"/"FAIL" line per check, exit 0 when all passed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "lx_check.h"
#include "lx_sig.h"

/* --- a handler with siginfo and ucontext --- */
static volatile sig_atomic_t got_sig, got_code, got_pid, got_uid;
static volatile int mask_ok, uc_ok, stack_aligned;
static volatile uintptr_t handler_sp;

static void info_handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	sigset_t cur;
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);

	got_sig = sig;
	got_code = si->si_code;
	got_pid = si->si_pid;
	got_uid = (sig_atomic_t)si->si_uid;
	got_count++;
	handler_sp = sp;
	sigprocmask(SIG_BLOCK, 0, &cur);
	/* blocked during the handler: sig itself and sa_mask's SIGUSR2 */
	mask_ok = sigismember(&cur, sig) && sigismember(&cur, SIGUSR2);
	/* the interrupted context: its mask (SIGUSR1 not blocked there) and a user rip */
	uc_ok = uc && !sigismember(&uc->uc_sigmask, SIGUSR1) &&
		uc->uc_mcontext.gregs[REG_RIP] != 0 && uc->uc_link == 0;
	/* rbp = rsp at entry - 8 - 8 (push rbp): rsp + 8 is 16-aligned at entry, as after a call */
	stack_aligned = (sp & 15) == 0;
}

static void check_handler(void)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = info_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	check(sigaction(SIGUSR1, &sa, &old) == 0, "sigaction SIGUSR1 with SA_SIGINFO");
	got_sig = 0;
	check(kill(getpid(), SIGUSR1) == 0 && got_sig == SIGUSR1, "kill(self): the handler ran");
	check(got_code == SI_USER && got_pid == getpid() && got_uid == (int)getuid(),
	      "siginfo: SI_USER, si_pid, si_uid");
	check(mask_ok, "the signal and sa_mask are blocked during the handler");
	check(uc_ok, "ucontext: uc_sigmask of the interrupted code, rip, uc_link 0");
	check(stack_aligned, "handler stack aligned as after a call");
	{
		sigset_t cur;

		sigprocmask(SIG_BLOCK, 0, &cur);
		check(!sigismember(&cur, SIGUSR1) && !sigismember(&cur, SIGUSR2),
		      "the mask is back after the handler returns");
	}
	got_sig = 0;
	check(syscall(SYS_tgkill, getpid(), getpid(), SIGUSR1) == 0 && got_sig == SIGUSR1 &&
		      got_code == SI_TKILL,
	      "tgkill: handler ran, si_code SI_TKILL");
	errno = 0;
	check(syscall(SYS_tgkill, getpid() + 100000, getpid(), SIGUSR1) < 0 && errno == ESRCH,
	      "tgkill with the wrong tgid: ESRCH");
	errno = 0;
	check(syscall(SYS_tgkill, 0, getpid(), SIGUSR1) < 0 && errno == EINVAL,
	      "tgkill with tgid 0: EINVAL");
	errno = 0;
	check(sigaction(SIGKILL, &sa, 0) < 0 && errno == EINVAL, "sigaction(SIGKILL): EINVAL");
	errno = 0;
	check(kill(getpid(), 65) < 0 && errno == EINVAL, "kill with signal 65: EINVAL");
	check(kill(getpid(), 0) == 0, "kill(self, 0): check only");
	sigaction(SIGUSR1, &old, 0);
}

/* --- SA_RESETHAND, SA_NODEFER --- */
static volatile int depth, max_depth, calls;

static void nodefer_handler(int sig)
{
	depth++;
	if (depth > max_depth)
		max_depth = depth;
	/* with SA_NODEFER it nests at once; without, it runs after this one returns */
	if (++calls < 3)
		kill(getpid(), sig);
	depth--;
}

static void check_flags(void)
{
	struct sigaction q;

	got_count = 0;
	set_handler(SIGUSR1, count_handler, SA_RESETHAND);
	kill(getpid(), SIGUSR1);
	sigaction(SIGUSR1, 0, &q);
	check(got_count == 1 && q.sa_handler == SIG_DFL, "SA_RESETHAND: ran once, then SIG_DFL");
	max_depth = calls = 0;
	set_handler(SIGUSR1, nodefer_handler, SA_NODEFER);
	kill(getpid(), SIGUSR1);
	check(max_depth == 3 && calls == 3, "SA_NODEFER: the handler nests");
	max_depth = calls = 0;
	set_handler(SIGUSR1, nodefer_handler, 0);
	kill(getpid(), SIGUSR1);
	check(max_depth == 1 && calls == 3,
	      "without SA_NODEFER: the next one waits for the handler to return");
	set_handler(SIGUSR1, SIG_DFL, 0);
}

/* --- blocking and delivery on unblock, sigpending, sigtimedwait --- */
static void check_mask(void)
{
	sigset_t set, pend;
	siginfo_t si;
	struct timespec zero = {0, 0};

	got_count = 0;
	set_handler(SIGUSR2, count_handler, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, 0);
	kill(getpid(), SIGUSR2);
	sigpending(&pend);
	check(got_count == 0 && sigismember(&pend, SIGUSR2), "blocked: not delivered, pending");
	sigprocmask(SIG_UNBLOCK, &set, 0);
	check(got_count == 1, "delivered when unblocked");
	sigpending(&pend);
	check(!sigismember(&pend, SIGUSR2), "no longer pending");

	sigprocmask(SIG_BLOCK, &set, 0);
	kill(getpid(), SIGUSR2);
	check(sigtimedwait(&set, &si, &zero) == SIGUSR2 && si.si_pid == getpid() && got_count == 1,
	      "sigtimedwait takes a pending signal, its handler does not run");
	errno = 0;
	check(sigtimedwait(&set, &si, &zero) < 0 && errno == EAGAIN,
	      "sigtimedwait with nothing pending and a zero timeout: EAGAIN");
	sigprocmask(SIG_UNBLOCK, &set, 0);
	set_handler(SIGUSR2, SIG_DFL, 0);
	{
		sigset_t all;

		sigfillset(&all);
		sigprocmask(SIG_SETMASK, &all, 0);
		sigprocmask(SIG_SETMASK, 0, &set);
		check(!sigismember(&set, SIGKILL) && !sigismember(&set, SIGSTOP),
		      "SIGKILL and SIGSTOP cannot be blocked");
		sigemptyset(&all);
		sigprocmask(SIG_SETMASK, &all, 0);
	}
}

/* --- SIGSEGV caught and left with siglongjmp --- */
static sigjmp_buf jb;
static volatile int segv_code;
static volatile uintptr_t segv_addr;

static void segv_handler(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	(void)sig;
	segv_code = si->si_code;
	segv_addr = (uintptr_t)si->si_addr;
	siglongjmp(jb, 1);
}

static void check_segv(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	volatile char *ro = mmap(0, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char *nx = mmap(0, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *gone = mmap(0, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	volatile int reached = 0;

	set_action(SIGSEGV, segv_handler, 0);
	segv_code = 0;
	if (!sigsetjmp(jb, 1)) {
		ro[8] = 1;
		reached = 1;
	}
	check(!reached && segv_code == SEGV_ACCERR && segv_addr == (uintptr_t)ro + 8,
	      "write to a read-only page: SIGSEGV caught, SEGV_ACCERR, si_addr");
	nx[0] = 0xc3; /* ret */
	segv_code = 0;
	if (!sigsetjmp(jb, 1)) {
		((void (*)(void))nx)();
		reached = 1;
	}
	check(!reached && segv_code == SEGV_ACCERR && segv_addr == (uintptr_t)nx,
	      "call into a page without PROT_EXEC: SIGSEGV caught, SEGV_ACCERR, si_addr");
	munmap(gone, pg);
	segv_code = 0;
	if (!sigsetjmp(jb, 1)) {
		(void)*(volatile char *)gone;
		reached = 1;
	}
	check(!reached && segv_code == SEGV_MAPERR && segv_addr == (uintptr_t)gone,
	      "read of an unmapped page: SEGV_MAPERR");
	{
		sigset_t cur;

		sigprocmask(SIG_BLOCK, 0, &cur);
		check(!sigismember(&cur, SIGSEGV), "siglongjmp restored the mask");
	}
	set_handler(SIGSEGV, SIG_DFL, 0);
	munmap((void *)ro, pg);
	munmap(nx, pg);
}

/* --- sigaltstack and SA_ONSTACK --- */
static char altstack[65536] __attribute__((aligned(16)));
static volatile int on_alt, alt_flags;

static void alt_handler(int sig)
{
	char here;
	stack_t cur;

	(void)sig;
	on_alt = &here >= altstack && &here < altstack + sizeof(altstack);
	sigaltstack(0, &cur);
	alt_flags = cur.ss_flags;
}

static void check_altstack(void)
{
	stack_t ss = {.ss_sp = altstack, .ss_size = sizeof(altstack), .ss_flags = 0}, old;

	check(sigaltstack(&ss, &old) == 0 && old.ss_flags == SS_DISABLE, "sigaltstack set");
	set_handler(SIGUSR2, alt_handler, SA_ONSTACK);
	on_alt = 0;
	kill(getpid(), SIGUSR2);
	check(on_alt && alt_flags == SS_ONSTACK,
	      "SA_ONSTACK: the handler runs on the alternate stack");
	ss.ss_size = 100;
	errno = 0;
	check(sigaltstack(&ss, 0) < 0 && errno == ENOMEM, "sigaltstack below MINSIGSTKSZ: ENOMEM");
	ss.ss_flags = SS_DISABLE;
	check(sigaltstack(&ss, 0) == 0, "sigaltstack disabled");
	set_handler(SIGUSR2, SIG_DFL, 0);
}

/*
 * --- the FPU image's reserved bytes carry nothing of the kernel's ---
 * FXSAVE leaves bytes 464-511 of its image alone.  Linux with XSAVE puts
 * its software bytes there (FP_XSTATE_MAGIC1 first); without, it saves
 * straight into the frame, so they keep the stack's own bytes.  A kernel
 * that saves into a buffer of its own must clear them, or its stack
 * reaches the user: the frame goes on an alternate stack filled with 0xa5
 * here, so any other value is the kernel's.
 */
static volatile int reserved_ok = -1;

static void reserved_handler(int sig, siginfo_t *si, void *ctx)
{
	const ucontext_t *uc = ctx;
	const uint8_t *fp = (const uint8_t *)uc->uc_mcontext.fpregs;
	uint32_t magic;
	int zero = 1, ours = 1;

	(void)sig;
	(void)si;
	if (!fp) {
		reserved_ok = 0;
		return;
	}
	memcpy(&magic, fp + 464, sizeof(magic));
	for (int i = 464; i < 512; i++) {
		zero &= fp[i] == 0;
		ours &= fp[i] == 0xa5;
	}
	reserved_ok = magic == 0x46505853u || zero || ours;
}

static void check_fpstate_reserved(void)
{
	stack_t ss = {.ss_sp = altstack, .ss_size = sizeof(altstack), .ss_flags = 0};
	struct sigaction sa;

	memset(altstack, 0xa5, sizeof(altstack));
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = reserved_handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	check(sigaltstack(&ss, 0) == 0 && sigaction(SIGUSR2, &sa, 0) == 0 &&
		      kill(getpid(), SIGUSR2) == 0 && reserved_ok == 1,
	      "the FPU image's bytes 464-511: the xstate magic, zeros or the stack's own, "
	      "never the kernel's");
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, 0);
	set_handler(SIGUSR2, SIG_DFL, 0);
}

/* --- the FPU state survives a handler that uses it --- */
static volatile double fpu_in_handler;

static void fpu_handler(int sig)
{
	volatile double x = 3.0;

	fpu_in_handler = x * (double)sig;
}

static void check_fpu(void)
{
	volatile double a = 1.5, b;

	set_handler(SIGUSR1, fpu_handler, 0);
	b = a * 2.0;
	kill(getpid(), SIGUSR1);
	b = b + a;
	check(b == 4.5 && fpu_in_handler == 3.0 * SIGUSR1, "FPU state kept across a handler");
	set_handler(SIGUSR1, SIG_DFL, 0);
}

/*
 * --- rt_sigreturn with a forged frame (lx_signal forge) ---
 * A handler rewrites its own ucontext, then returns through the libc's
 * restorer into rt_sigreturn.  Whatever the frame says, the task may only
 * come back in ring 3 with user flags (IOPL 0, NT 0, IF 1), or die by
 * SIGSEGV; the kernel runs on.  The same expectations hold on the host.
 */
enum forge {
	F_RIP_NONCANON,
	F_RIP_KERNEL,
	F_CS_KERNEL,
	F_FLAGS,
	F_FPSTATE_KERNEL,
	F_MXCSR,
	F_SP_NONCANON
};
static volatile int forge_what;
static char forge_stack[8192] __attribute__((aligned(16)));

static void landing_cs(void)
{
	unsigned short cs;

	__asm__ volatile("mov %%cs, %0" : "=r"(cs));
	_exit((cs & 3) == 3 ? 0 : 1);
}

static void landing_flags(void)
{
	unsigned long fl;

	__asm__ volatile("pushfq; popq %0" : "=r"(fl));
	/* IOPL, NT, VM, VIF, VIP, ID were asked for and IF cleared: only user flags */
	_exit(!(fl & 0x3000) && !(fl & 0x4000) && (fl & 0x200) && !(fl & 0x20000) ? 0 : 1);
}

static void landing_mxcsr(void)
{
	unsigned int m;

	__asm__ volatile("stmxcsr %0" : "=m"(m));
	_exit(m & 0xffff0000u ? 1 : 0);
}

static void forge_handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	greg_t *g = uc->uc_mcontext.gregs;
	uintptr_t top = ((uintptr_t)(forge_stack + sizeof(forge_stack)) & ~(uintptr_t)15) - 8;

	(void)sig;
	(void)si;
	g[REG_RSP] = (greg_t)top;
	switch (forge_what) {
	case F_RIP_NONCANON:
		g[REG_RIP] = (greg_t)0x8000000000001000ULL;
		break;
	case F_RIP_KERNEL:
		g[REG_RIP] = (greg_t)0xffffffff81000000ULL;
		break;
	case F_CS_KERNEL: /* cs 0x08, ss 0x10: the kernel's selectors */
		g[REG_CSGSFS] = (greg_t)((g[REG_CSGSFS] & ~0xffffLL) | 0x08 | (0x10LL << 48));
		g[REG_RIP] = (greg_t)(uintptr_t)landing_cs;
		break;
	case F_FLAGS: /* IOPL 3, NT, VM, VIF, VIP, ID set; IF cleared */
		g[REG_EFL] = (greg_t)((g[REG_EFL] | 0x3000 | 0x4000 | 0x20000 | 0x80000 | 0x100000 |
				       0x200000) &
				      ~0x200LL);
		g[REG_RIP] = (greg_t)(uintptr_t)landing_flags;
		break;
	case F_FPSTATE_KERNEL:
		uc->uc_mcontext.fpregs = (fpregset_t)(uintptr_t)0xffffffff80000000ULL;
		g[REG_RIP] = (greg_t)(uintptr_t)landing_cs;
		break;
	case F_MXCSR: /* reserved MXCSR bits: fxrstor of them would #GP in the kernel */
		if (uc->uc_mcontext.fpregs)
			uc->uc_mcontext.fpregs->mxcsr = 0xffffffffu;
		g[REG_RIP] = (greg_t)(uintptr_t)landing_mxcsr;
		break;
	case F_SP_NONCANON:
		g[REG_RSP] = (greg_t)0x8000000000000000ULL;
		g[REG_RIP] = (greg_t)(uintptr_t)landing_cs;
		break;
	}
}

static int forge_status(int what)
{
	int st = -1;
	pid_t pid = fork();

	if (pid == 0) {
		forge_what = what;
		set_action(SIGUSR1, forge_handler, 0);
		kill(getpid(), SIGUSR1);
		_exit(100); /* not reached: the handler never returns here */
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return st;
}

static int killed_by_segv(int st)
{
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV;
}

static int exited_0(int st)
{
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static void check_forge(void)
{
	int st;

	check(killed_by_segv(forge_status(F_RIP_NONCANON)),
	      "forged frame, non-canonical rip: SIGSEGV");
	check(killed_by_segv(forge_status(F_RIP_KERNEL)), "forged frame, kernel rip: SIGSEGV");
	st = forge_status(F_CS_KERNEL);
	check(exited_0(st) || killed_by_segv(st),
	      "forged frame, kernel cs/ss: back in ring 3 or SIGSEGV, never ring 0");
	check(exited_0(forge_status(F_FLAGS)),
	      "forged frame, IOPL/NT/VM/ID set and IF clear: only user flags restored");
	check(killed_by_segv(forge_status(F_FPSTATE_KERNEL)),
	      "forged frame, fpstate pointer into the kernel: SIGSEGV");
	st = forge_status(F_MXCSR);
	check(exited_0(st) || killed_by_segv(st),
	      "forged frame, reserved MXCSR bits: cleared or SIGSEGV, no kernel #GP");
	st = forge_status(F_SP_NONCANON);
	check(WIFSIGNALED(st) && (WTERMSIG(st) == SIGSEGV || WTERMSIG(st) == SIGBUS),
	      "forged frame, non-canonical rsp: killed (SIGSEGV/SIGBUS)");
}

int main(int argc, char **argv)
{
	setvbuf(stdout, 0, _IONBF, 0);
	printf("lx_signal: %s, pid %d\n", argv[0], getpid());
	if (argc == 2 && !strcmp(argv[1], "forge")) {
		check_forge();
		return summary("lx_signal");
	}
	check_handler();
	check_flags();
	check_mask();
	check_segv();
	check_altstack();
	check_fpstate_reserved();
	check_fpu();
	return summary("lx_signal");
}
