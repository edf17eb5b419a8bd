/*
 * The ring-3 half of the ia32_int80 ktest (kernel/test/test_ia32.c): a
 * 64-bit program making i386 system calls with int $0x80, which Linux 6.6
 * allows (entry_INT80_compat serves any task).  Checks what only a 64-bit
 * caller can set up: the dispatcher takes eax and the low 32 bits of each
 * argument register (upper halves ignored), a pointer above 4 GiB is cut to
 * its low 32 bits (and so faults), the result comes back sign-extended in
 * rax, an unknown number is -ENOSYS, and every other register, upper halves
 * included, comes back as it was.  Exits 0 when all hold, else 1 with a
 * line per failure.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "userland/lib/aslrbench_user.h"

#define LOW_PAGE 0x10000000UL /* below 4 GiB: a 32-bit pointer reaches it */
#define HI	 0xa5a5a5a500000000UL

static int failed;

static void expect(int ok, const char *what)
{
	if (!ok) {
		printf("t_int80: FAIL %s\n", what);
		failed = 1;
	}
}

struct regs {
	uint64_t rax, rbx, rcx, rdx, rsi, rdi, rbp, r8, r9, r10, r11, r12, r13, r14, r15;
};

/* int $0x80 with every general register from *in; *out: every register after. */
static __attribute__((noinline)) void int80(const struct regs *in, struct regs *out)
{
	/* past the red zone first: the pushes must not land on the compiler's data */
	__asm__ volatile("sub $128, %%rsp\n\t"
			 "push %%rbp\n\t"
			 "push %%rbx\n\t"
			 "push %%r12\n\t"
			 "push %%r13\n\t"
			 "push %%r14\n\t"
			 "push %%r15\n\t"
			 "push %1\n\t" /* out */
			 "mov %0, %%rax\n\t"
			 "mov 8(%%rax), %%rbx\n\t"
			 "mov 16(%%rax), %%rcx\n\t"
			 "mov 24(%%rax), %%rdx\n\t"
			 "mov 32(%%rax), %%rsi\n\t"
			 "mov 40(%%rax), %%rdi\n\t"
			 "mov 48(%%rax), %%rbp\n\t"
			 "mov 56(%%rax), %%r8\n\t"
			 "mov 64(%%rax), %%r9\n\t"
			 "mov 72(%%rax), %%r10\n\t"
			 "mov 80(%%rax), %%r11\n\t"
			 "mov 88(%%rax), %%r12\n\t"
			 "mov 96(%%rax), %%r13\n\t"
			 "mov 104(%%rax), %%r14\n\t"
			 "mov 112(%%rax), %%r15\n\t"
			 "mov (%%rax), %%rax\n\t"
			 "int $0x80\n\t"
			 "xchg %%rax, (%%rsp)\n\t" /* rax = out, the result on the stack */
			 "mov %%rbx, 8(%%rax)\n\t"
			 "mov %%rcx, 16(%%rax)\n\t"
			 "mov %%rdx, 24(%%rax)\n\t"
			 "mov %%rsi, 32(%%rax)\n\t"
			 "mov %%rdi, 40(%%rax)\n\t"
			 "mov %%rbp, 48(%%rax)\n\t"
			 "mov %%r8, 56(%%rax)\n\t"
			 "mov %%r9, 64(%%rax)\n\t"
			 "mov %%r10, 72(%%rax)\n\t"
			 "mov %%r11, 80(%%rax)\n\t"
			 "mov %%r12, 88(%%rax)\n\t"
			 "mov %%r13, 96(%%rax)\n\t"
			 "mov %%r14, 104(%%rax)\n\t"
			 "mov %%r15, 112(%%rax)\n\t"
			 "pop %%rbx\n\t"
			 "mov %%rbx, (%%rax)\n\t"
			 "pop %%r15\n\t"
			 "pop %%r14\n\t"
			 "pop %%r13\n\t"
			 "pop %%r12\n\t"
			 "pop %%rbx\n\t"
			 "pop %%rbp\n\t"
			 "add $128, %%rsp"
			 :
			 : "r"(in), "r"(out)
			 : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "memory");
}

/* Every register but rax came back as it went in. */
static int preserved(const struct regs *in, const struct regs *out)
{
	return !memcmp(&in->rbx, &out->rbx, sizeof(*in) - sizeof(in->rax));
}

static void fill(struct regs *r, uint64_t nr, uint64_t a1, uint64_t a2, uint64_t a3)
{
	uint64_t *w = (uint64_t *)r;

	for (unsigned i = 0; i < sizeof(*r) / 8; i++)
		w[i] = 0x0123456789abcdefULL * (i + 1);
	r->rax = nr;
	r->rbx = a1;
	r->rcx = a2;
	r->rdx = a3;
}

int main(void)
{
	struct regs in, out;
	char *low = mmap((void *)LOW_PAGE, 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	static char high[16] = "high\n";

	if (low != (char *)LOW_PAGE) {
		printf("t_int80: FAIL mmap at 0x%lx\n", LOW_PAGE);
		return 1;
	}
	memcpy(low, "t_int80: write through int $0x80\n", 33);

	/* getpid (20), the number's upper half set: only eax counts */
	fill(&in, HI | 20, 0, 0, 0);
	int80(&in, &out);
	expect(out.rax == (uint64_t)getpid(), "getpid with garbage above eax");
	expect(preserved(&in, &out), "registers kept across getpid");

	/* write (4): fd and pointer with garbage in their upper halves */
	fill(&in, 4, HI | 1, HI | LOW_PAGE, HI | 33);
	int80(&in, &out);
	expect(out.rax == 33, "write(1, low page, 33) with garbage above each argument");
	expect(preserved(&in, &out), "registers kept across write");

	/* a pointer above 4 GiB is cut to 32 bits: here to an unmapped address */
	if ((uint64_t)high >> 32 && ((uint64_t)high & 0xfffff000ULL) != LOW_PAGE) {
		fill(&in, 4, 1, (uint64_t)high, 5);
		int80(&in, &out);
		expect(out.rax == (uint64_t)-EFAULT, "write of a buffer above 4 GiB: EFAULT");
	}

	/* unknown numbers: -ENOSYS sign-extended to 64 bits */
	fill(&in, 0x7fffffff, 0, 0, 0);
	int80(&in, &out);
	expect(out.rax == (uint64_t)-ENOSYS, "i386 call 0x7fffffff: -ENOSYS in rax");
	expect(preserved(&in, &out), "registers kept across an unknown call");

	/* set_thread_area (243) with a bad pointer, and with entry 11 (not a TLS entry) */
	fill(&in, 243, 0x10, 0, 0);
	int80(&in, &out);
	expect(out.rax == (uint64_t)-EFAULT, "set_thread_area(0x10): -EFAULT");
	memset(low, 0, 16);
	((uint32_t *)low)[0] = 11;
	((uint32_t *)low)[3] = 1 | 1 << 4; /* seg_32bit, limit_in_pages */
	fill(&in, 243, LOW_PAGE, 0, 0);
	int80(&in, &out);
	expect(out.rax == (uint64_t)-EINVAL, "set_thread_area of GDT entry 11: -EINVAL");

	/* _llseek (140) on a bad fd, garbage above it: EBADF */
	fill(&in, 140, HI | 999, 0, 0);
	int80(&in, &out);
	expect(out.rax == (uint64_t)-EBADF, "_llseek on fd 999: -EBADF");
	printf("t_int80: %s\n", failed ? "failed" : "ok");
	return failed;
}
